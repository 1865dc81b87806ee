"""The usage meter: tokens summed over requests, their price, and the budget checks."""

from __future__ import annotations

from dataclasses import dataclass, field

from agent.events import StopReason, Usage
from agent.llm.base import Prices
from agent.present import estimate_tokens
from agent.settings.config import Limits


@dataclass
class Meter:
    prices: Prices = field(default_factory=Prices)  # of the model in use; /model changes it
    total: Usage = field(default_factory=Usage)
    requests: int = 0
    spent_usd: float = 0.0  # each request priced when it happened, so a model switch is exact

    @property
    def cost_usd(self) -> float:
        return self.spent_usd

    @property
    def tokens(self) -> int:
        return self.total.prompt_total + self.total.output

    def add(self, usage: Usage) -> None:
        self.total = self.total + usage
        self.spent_usd += self.prices.cost(usage)
        self.requests += 1

    def estimate(self, streamed_text: str) -> tuple[Usage, Usage, float]:
        """(pending, total, cost) as if the reply so far were already counted."""
        pending = Usage(output=estimate_tokens(streamed_text))
        total = self.total + pending
        return pending, total, self.spent_usd + self.prices.cost(pending)

    def over_budget(self, limits: Limits) -> StopReason | None:
        if limits.max_tokens and self.tokens >= limits.max_tokens:
            return StopReason.TOKEN_BUDGET
        if limits.budget_usd and self.cost_usd >= limits.budget_usd:
            return StopReason.DOLLAR_BUDGET
        return None
