"""The usage meter: tokens summed over requests, their price, and the budget checks.

A request whose model has no known price still counts its tokens; from then on the
session's cost is unknown (`cost_usd` is None), never a made-up $0.00. Budgets in tokens
always hold; a dollar budget over an unknown price cannot, and says so once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agent.cost.pricing import Pricing
from agent.events import Budget, BudgetWarning, Event, Level, Notice, StopReason, Usage
from agent.llm.base import Completion, Message, ToolSpec
from agent.llm.request import ModelRequest
from agent.present import estimate_tokens
from agent.settings.config import Limits

WARN_AT = 0.8  # of a budget: a BudgetWarning, and the meter's bar turns


@dataclass(eq=False, repr=False)  # state, compared and shown by identity
class Meter:
    """The session's usage so far: tokens over every request, dollars spent, budget checks."""

    pricing: Pricing = field(default_factory=Pricing)  # of the model in use; /model changes it
    role: str = "main"
    total: Usage = field(default_factory=Usage)
    requests: int = 0
    spent_usd: float = 0.0  # each request priced when it happened, so a model switch is exact
    unpriced: int = 0  # requests whose price was unknown
    _warned: set[str] = field(default_factory=set)

    @property
    def cost_usd(self) -> float | None:
        return None if self.unpriced else self.spent_usd

    @property
    def tokens(self) -> int:
        return self.total.prompt_total + self.total.output

    def price(
        self, usage: Usage, duration_s: float = 0.0, pricing: Pricing | None = None
    ) -> float | None:
        return (pricing or self.pricing).cost(usage, duration_s)

    def add(self, usage: Usage, duration_s: float = 0.0, pricing: Pricing | None = None) -> None:
        """Count one request; `pricing` when another model (the fast one) answered it."""
        self.total = self.total + usage
        cost = self.price(usage, duration_s, pricing)
        if cost is None:
            self.unpriced += 1
        else:
            self.spent_usd += cost
        self.requests += 1

    def request(
        self,
        step: int,
        messages: list[Message],
        tools: list[ToolSpec],
        completion: Completion,
        *,
        role: str = "",
        pricing: Pricing | None = None,
    ) -> ModelRequest:
        """The record of one completed request, priced as this meter prices it (or as
        `pricing` does, for the model in `role`)."""
        return ModelRequest(
            step=step,
            role=role or self.role,
            model=(pricing or self.pricing).model,
            messages=tuple(messages),
            tools=tuple(tools),
            reply=completion.message,
            usage=completion.usage,
            cost_usd=self.price(completion.usage, completion.duration_s, pricing),
            ttft_s=completion.ttft_s,
            duration_s=completion.duration_s,
        )

    def estimate(self, streamed_text: str) -> tuple[Usage, Usage, float | None]:
        """(pending, total, cost) as if the reply so far were already counted."""
        pending = Usage(output=estimate_tokens(streamed_text))
        total = self.total + pending
        cost, more = self.cost_usd, self.price(pending)
        return pending, total, None if cost is None or more is None else cost + more

    def child(self, pricing: Pricing, role: str) -> ChildMeter:
        """The meter of a child agent whose model is priced as `pricing`."""
        return ChildMeter(pricing=pricing, role=role, parent=self)

    def over_budget(self, limits: Limits) -> StopReason | None:
        if limits.max_tokens and self.tokens >= limits.max_tokens:
            return StopReason.TOKEN_BUDGET
        cost = self.cost_usd
        if limits.budget_usd and cost is not None and cost >= limits.budget_usd:
            return StopReason.DOLLAR_BUDGET
        return None

    def budget_events(self, limits: Limits) -> list[Event]:
        """What to say after a request: each budget's warning at 80%, once per session."""
        said: list[Event] = []
        cost = self.cost_usd
        if limits.budget_usd and cost is None and "usd-unknown" not in self._warned:
            self._warned.add("usd-unknown")
            said.append(
                Notice(
                    f"The price of {self.pricing.model or 'this model'} is unknown, so the "
                    f"${limits.budget_usd:g} budget cannot be kept; set "
                    "[models.main.prices] to price it, or [limits] max_tokens.",
                    level=Level.WARNING,
                )
            )
        if limits.budget_usd and cost is not None:
            said += self._warning(Budget.USD, cost, limits.budget_usd)
        if limits.max_tokens:
            said += self._warning(Budget.TOKENS, float(self.tokens), float(limits.max_tokens))
        return said

    def _warning(self, budget: Budget, used: float, limit: float) -> list[Event]:
        if budget in self._warned or used < WARN_AT * limit:
            return []
        self._warned.add(budget)
        spent = (
            f"${used:.4f} of the ${limit:g}"
            if budget is Budget.USD
            else f"{used:.0f} of the {limit:.0f}-token"
        )
        return [
            BudgetWarning(
                f"{used / limit:.0%} of the budget is used ({spent} budget); the run stops "
                "when it is all spent.",
                level=Level.WARNING,
                budget=budget,
                used=used,
                limit=limit,
            )
        ]


@dataclass(eq=False, repr=False)  # state, compared and shown by identity
class ChildMeter(Meter):
    """A child agent's meter: its own usage, each request counted in its parent's meter as
    it happens (priced as the child's model is), and the parent's budget as its own: a
    child cannot spend past what the parent may."""

    parent: Meter | None = None

    def add(self, usage: Usage, duration_s: float = 0.0, pricing: Pricing | None = None) -> None:
        super().add(usage, duration_s, pricing)
        if self.parent is not None:
            self.parent.add(usage, duration_s, pricing or self.pricing)

    def over_budget(self, limits: Limits) -> StopReason | None:
        return self.parent.over_budget(limits) if self.parent else super().over_budget(limits)

    def budget_events(self, limits: Limits) -> list[Event]:
        return []  # the parent's meter says them, once
