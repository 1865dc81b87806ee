"""What the live meter shows, folded from the event stream (no Textual, shared with line mode).

While text streams the output count moves on an estimate (about four characters per
token); each `UsageUpdated` from the server replaces the estimate with real figures.
A model with no known price shows its cost as unknown; the budget bar then follows the
token budget, if there is one. The bar turns at 80% of either budget (`BudgetWarning`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from agent.event_values import Usage
from agent.present import CHARS_PER_TOKEN, cost_text, human_duration, human_tokens

if TYPE_CHECKING:
    from agent.events import Event

__all__ = ["MeterState", "human_duration", "human_tokens"]

WARN_AT = 0.8  # as agent.cost.meter's, not imported: the first frame needs no price table


@dataclass
class MeterState:
    model: str = ""
    mode: str = ""
    backend: str = ""  # the sandbox: docker, or bwrap when no engine runs
    budget_usd: float = 0.0
    max_tokens: int = 0  # the token budget; 0: none
    usage: Usage = field(default_factory=Usage)
    cost_usd: float | None = 0.0  # None: unknown (a model kiln has no price for)
    warned: bool = False  # a BudgetWarning came
    steps: int = 0
    window_share: float | None = None  # how full the context window is; None: not known yet
    streamed_chars: int = 0  # text seen since the last server figures
    elapsed_s: float = 0.0

    @property
    def output_tokens(self) -> int:
        return self.usage.output + self.streamed_chars // CHARS_PER_TOKEN

    @property
    def estimating(self) -> bool:
        return self.streamed_chars > 0

    @property
    def budget_fraction(self) -> float | None:
        """The larger share used of the budgets that can be measured; None: no bar."""
        shares = []
        if self.budget_usd > 0 and self.cost_usd is not None:
            shares.append(self.cost_usd / self.budget_usd)
        if self.max_tokens > 0:
            shares.append((self.usage.prompt_total + self.output_tokens) / self.max_tokens)
        return min(max(shares), 1.0) if shares else None

    @property
    def over_warning(self) -> bool:
        fraction = self.budget_fraction
        return self.warned or (fraction is not None and fraction >= WARN_AT)

    def apply(self, event: Event) -> bool:
        """Fold one event in; True when something the meter shows changed."""
        # Imported here: the app's first frame draws a meter before any event type loads.
        from agent.events import (
            BudgetWarning,
            Finished,
            ModeChanged,
            ModelChanged,
            ReasoningDelta,
            SessionStarted,
            TextDelta,
            TurnStarted,
            UsageUpdated,
            WindowUsed,
        )

        if isinstance(event, TextDelta | ReasoningDelta):
            self.streamed_chars += len(event.text)
        elif isinstance(event, UsageUpdated):
            self.usage = event.total
            self.cost_usd = event.cost_usd
            self.streamed_chars = 0
        elif isinstance(event, TurnStarted):
            self.steps = max(self.steps, event.step)
        elif isinstance(event, SessionStarted):
            self.model = event.model or self.model
            self.mode = event.mode or self.mode
            self.backend = event.backend or self.backend
        elif isinstance(event, ModeChanged):
            self.mode = event.mode
        elif isinstance(event, ModelChanged):
            self.model = event.model
        elif isinstance(event, BudgetWarning):
            self.warned = True
        elif isinstance(event, WindowUsed):
            self.window_share = event.tokens / event.window if event.window else None
        elif isinstance(event, Finished):
            self.usage = event.usage if event.usage.prompt_total else self.usage
            if event.cost_usd is None or self.cost_usd is None:
                self.cost_usd = None
            else:
                self.cost_usd = max(self.cost_usd, event.cost_usd)
            self.steps = max(self.steps, event.steps)
            self.streamed_chars = 0
        else:
            return False
        return True

    def cache_text(self) -> str:
        """The cache-hit ratio, and how full the context window is once known."""
        window = f" · ctx {self.window_share:.0%}" if self.window_share is not None else ""
        return f"cache {self.usage.cache_hit_ratio:.0%}{window}"

    def cost_text(self) -> str:
        return cost_text(self.cost_usd, self.budget_usd)
