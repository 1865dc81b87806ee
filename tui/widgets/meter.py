"""The live meter docked at the top: model, mode, tokens, cache hits, money, steps, time."""

from __future__ import annotations

import time

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import Label

from tui.meter_state import MeterState, human_duration, human_tokens

BAR_CELLS = 10


class Meter(Horizontal):
    """Redraws from a `MeterState`; the screen folds events into the state and calls `show`."""

    def __init__(self, state: MeterState, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.state = state
        self._clock: Timer | None = None
        self._run_started: float | None = None
        self._elapsed_before = 0.0

    def compose(self) -> ComposeResult:
        yield Label(id="m-model")
        yield Label(id="m-mode")
        yield Label(id="m-tokens")
        yield Label(id="m-cache")
        yield Label(id="m-bar")
        yield Label(id="m-cost")
        yield Label(id="m-steps")
        yield Label(id="m-clock")

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        s = self.state
        self.query_one("#m-model", Label).update(s.model or "no model")
        mode = self.query_one("#m-mode", Label)
        mode.update(s.mode.upper() or "?")
        mode.set_classes(f"-mode-{s.mode}")
        approx = "~" if s.estimating else ""
        self.query_one("#m-tokens", Label).update(
            f"in {human_tokens(s.usage.uncached_input)} · cached "
            f"{human_tokens(s.usage.cached_input)} · out {approx}{human_tokens(s.output_tokens)}"
        )
        self.query_one("#m-cache", Label).update(f"cache {s.usage.cache_hit_ratio:.0%}")
        bar = self.query_one("#m-bar", Label)
        fraction = s.budget_fraction
        bar.display = fraction is not None
        if fraction is not None:
            filled = round(fraction * BAR_CELLS)
            bar.update("█" * filled + "░" * (BAR_CELLS - filled))
        bar.set_class(s.over_warning, "-warning")
        cost = self.query_one("#m-cost", Label)
        cost.update(s.cost_text())
        cost.set_class(s.over_warning, "-warning")
        self.query_one("#m-steps", Label).update(f"step {s.steps}")
        self.query_one("#m-clock", Label).update(human_duration(s.elapsed_s))

    def start_clock(self) -> None:
        """Count elapsed time while a request runs (never in snapshots: no run, no clock)."""
        self._run_started = time.monotonic()
        if self._clock is None:
            self._clock = self.set_interval(1.0, self._tick)

    def stop_clock(self) -> None:
        self._tick()
        if self._run_started is not None:
            self._elapsed_before += time.monotonic() - self._run_started
        self._run_started = None
        if self._clock is not None:
            self._clock.stop()
            self._clock = None

    def _tick(self) -> None:
        running = time.monotonic() - self._run_started if self._run_started else 0.0
        self.state.elapsed_s = self._elapsed_before + running
        self.query_one("#m-clock", Label).update(human_duration(self.state.elapsed_s))
