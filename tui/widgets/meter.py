"""The live meter docked at the top: model, mode, tokens, cache hits, money, steps, time."""

from __future__ import annotations

import time
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual.reactive import var
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

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


# Drawn left to right, each with a cell of space either side (the bar: before it only); the
# clock at the right edge.
LEFT_FIELDS = ("model", "mode", "sandbox", "tokens", "cache", "bar", "cost", "steps")
BAR = "bar"
CLOCK = "clock"


class Meter(Widget):
    """One line drawn from its `reading` (the Line API): changed fields repaint the line on
    the next frame, and no change of a field's width lays out the screen. `show()` takes a
    fresh reading of the shared `MeterState`, which the screen folds events into; no polling.

    One widget, not a label per field: each widget mounted costs the first frame about half
    a millisecond (a message pump, styles, compose, layout), and the meter's nine were 6 ms
    of it. Each field's colours are component classes, styled in kiln.tcss."""

    COMPONENT_CLASSES = {
        *(f"meter--{name}" for name in (*LEFT_FIELDS, CLOCK)),
        "meter--mode-plan",
        "meter--mode-ask",
        "meter--mode-auto-edit",
        "meter--mode-full-auto",
        "meter--warning",  # the bar and the cost, at 80% of a budget
    }

    reading: var[MeterReading] = var(MeterReading(), init=False)

    def __init__(self, state: MeterState, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.state = state
        self._clock: Timer | None = None
        self._run_started: float | None = None
        self._elapsed_before = 0.0

    def on_mount(self) -> None:
        self.show()  # never equal to the blank default reading: the watcher draws it

    def show(self) -> None:
        self.reading = MeterReading.of(self.state)

    def watch_reading(self) -> None:
        self.refresh()

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        background = Style(bgcolor=self.rich_style.bgcolor)
        left = [s for name in LEFT_FIELDS for s in self._field(name, self.reading)]
        clock = self._field(CLOCK, self.reading)
        room = max(0, width - sum(s.cell_length for s in clock))
        line = Strip(left).crop_extend(0, room, background)
        return Strip([*line, *clock]).crop(0, width)

    def _field(self, name: str, reading: MeterReading) -> list[Segment]:
        """A field's segments: its text in its style, a cell of space either side in its
        background, as a label with `padding: 0 1` draws them; none for an empty one."""
        text = getattr(reading, name)
        if not text:  # the sandbox under Docker, the bar without a budget
            return []
        # One component class a field, each a whole style: Textual resolves a component's
        # colours (alpha, `auto`) for one class at a time.
        component = f"meter--{name}"
        if name == "mode" and f"meter-{reading.mode_class}" in self.COMPONENT_CLASSES:
            component = f"meter-{reading.mode_class}"  # none for headless and review modes
        elif name in (BAR, "cost") and reading.warning:
            component = "meter--warning"
        style = self.get_component_rich_style(component)
        pad = Segment(" ", Style(bgcolor=style.bgcolor))
        return [pad, Segment(text, style)] if name == BAR else [pad, Segment(text, style), pad]

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
