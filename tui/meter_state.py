"""What the live meter shows, folded from the event stream (no Textual, shared with line mode).

While text streams the output count moves on an estimate (about four characters per
token); each `UsageUpdated` from the server replaces the estimate with real figures.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agent.events import (
    Event,
    Finished,
    ReasoningDelta,
    SessionStarted,
    TextDelta,
    TurnStarted,
    Usage,
    UsageUpdated,
)

CHARS_PER_TOKEN = 4
WARN_AT = 0.8


def human_tokens(n: int) -> str:
    if n < 1000:
        return str(n)
    if n < 1_000_000:
        return f"{n / 1000:.1f}k"
    return f"{n / 1_000_000:.2f}M"


def human_duration(seconds: float) -> str:
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@dataclass
class MeterState:
    model: str = ""
    mode: str = ""
    budget_usd: float = 0.0
    usage: Usage = field(default_factory=Usage)
    cost_usd: float = 0.0
    steps: int = 0
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
        if self.budget_usd <= 0:
            return None
        return min(self.cost_usd / self.budget_usd, 1.0)

    @property
    def over_warning(self) -> bool:
        fraction = self.budget_fraction
        return fraction is not None and fraction >= WARN_AT

    def apply(self, event: Event) -> bool:
        """Fold one event in; True when something the meter shows changed."""
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
        elif isinstance(event, Finished):
            self.usage = event.usage if event.usage.prompt_total else self.usage
            self.cost_usd = max(self.cost_usd, event.cost_usd)
            self.steps = max(self.steps, event.steps)
            self.streamed_chars = 0
        else:
            return False
        return True

    def cost_text(self) -> str:
        digits = 2 if max(self.cost_usd, self.budget_usd) >= 1 else 4
        spent = f"${self.cost_usd:.{digits}f}"
        return f"{spent} / ${self.budget_usd:.{digits}f}" if self.budget_usd > 0 else spent

    def summary_lines(self) -> list[str]:
        """The /cost answer."""
        u = self.usage
        return [
            f"model {self.model or '?'}, {self.steps} steps, {human_duration(self.elapsed_s)}",
            f"input: {u.uncached_input} uncached, {u.cached_input} cached, "
            f"{u.cache_write} cache writes; output: {u.output}",
            f"cache-hit ratio {u.cache_hit_ratio:.0%}; spent {self.cost_text()}",
        ]
