"""The live meter docked at the top: model, mode, tokens, cache hits, money, steps, time."""

from __future__ import annotations

import time
from dataclasses import dataclass

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.reactive import reactive, var
from textual.timer import Timer
from textual.widgets import Label

from tui.meter_state import MeterState, human_duration, human_tokens

BAR_CELLS = 10


@dataclass(frozen=True)
class MeterReading:
    """The text of every field for one `MeterState`: equal readings draw the same meter, so
    a reading that did not change (most events) costs no repaint at all."""

    model: str = ""
    mode: str = ""
    sandbox: str = ""  # shown only when not Docker: bubblewrap isolates less
    tokens: str = ""
    cache: str = ""
    bar: str = ""  # empty without a budget: the bar is hidden
    cost: str = ""
    steps: str = ""
    clock: str = ""
    warning: bool = False
    mode_class: str = ""

    @classmethod
    def of(cls, s: MeterState) -> MeterReading:
        approx = "~" if s.estimating else ""
        fraction = s.budget_fraction
        filled = round(fraction * BAR_CELLS) if fraction is not None else 0
        return cls(
            model=s.model or "no model",
            mode=s.mode.upper() or "?",
            sandbox=s.backend if s.backend not in ("", "docker") else "",
            tokens=f"in {human_tokens(s.usage.uncached_input)} · cached "
            f"{human_tokens(s.usage.cached_input)} · out {approx}{human_tokens(s.output_tokens)}",
            cache=s.cache_text(),
            bar="█" * filled + "░" * (BAR_CELLS - filled) if fraction is not None else "",
            cost=s.cost_text(),
            steps=f"step {s.steps}",
            clock=human_duration(s.elapsed_s),
            warning=s.over_warning,
            mode_class=f"-mode-{s.mode}",
        )


TEXT_FIELDS = ("model", "mode", "sandbox", "tokens", "cache", "bar", "cost", "steps", "clock")


class MeterField(Label):
    """One field; repaints in place, and asks for a layout only when its width changes
    (a layout reflows the whole screen, streaming transcript included)."""

    text: reactive[str] = reactive("", repaint=False, init=False)  # the watcher refreshes

    def watch_text(self, old: str, new: str) -> None:
        # Content, not a str: a model name like "qwen[7b]" is not console markup.
        self.update(Content(new), layout=cell_len(old) != cell_len(new))


class Meter(Horizontal):
    """Draws its `reading`; `show()` takes a fresh reading of the shared `MeterState`, which
    the screen folds events into. Changed fields repaint on the next frame, no polling."""

    reading: var[MeterReading] = var(MeterReading(), init=False)

    def __init__(self, state: MeterState, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.state = state
        self._fields = {name: MeterField(id=f"m-{name}") for name in TEXT_FIELDS}
        self._clock: Timer | None = None
        self._run_started: float | None = None
        self._elapsed_before = 0.0

    def compose(self) -> ComposeResult:
        yield from self._fields.values()

    def on_mount(self) -> None:
        self.show()  # never equal to the blank default reading: the watcher draws it

    def show(self) -> None:
        self.reading = MeterReading.of(self.state)

    def watch_reading(self, reading: MeterReading) -> None:
        for name, field in self._fields.items():
            field.text = getattr(reading, name)
        mode = self._fields["mode"]
        if not mode.has_class(reading.mode_class):
            mode.set_classes(reading.mode_class)
        self._fields["sandbox"].display = bool(reading.sandbox)
        bar = self._fields["bar"]
        bar.display = bool(reading.bar)
        bar.set_class(reading.warning, "-warning")
        self._fields["cost"].set_class(reading.warning, "-warning")

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
        self.show()
