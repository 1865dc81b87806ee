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
            f"{human_tokens(s.usage.cached_input)} · out {approx}{human_tokens(s.output_tokens)}"
            + (f" ({human_tokens(s.usage.reasoning)} thinking)" if s.usage.reasoning else ""),
            cache=s.cache_text(),
            bar="█" * filled + "░" * (BAR_CELLS - filled) if fraction is not None else "",
            cost=s.cost_text(),
            steps=f"step {s.steps}",
            clock=human_duration(s.elapsed_s),
            warning=s.over_warning,
            mode_class=f"-mode-{s.mode}",
        )


# Drawn left to right, each with a cell of space either side (the bar: before it only); the
# clock at the right edge. Each with the component class that colours it ("": the meter's
# own colour).
LEFT_FIELDS = {
    "model": "meter--model",
    "mode": "meter--mode",
    "sandbox": "meter--sandbox",
    "tokens": "meter--tokens",
    "cache": "",
    "bar": "meter--bar",
    "cost": "meter--cost",
    "steps": "",
}
BAR = "bar"
CLOCK = ("clock", "")


class Meter(Widget):
    """One line drawn from its `reading` (the Line API): changed fields repaint the line on
    the next frame, and no change of a field's width lays out the screen. `show()` takes a
    fresh reading of the shared `MeterState`, which the screen folds events into; no polling.

    One widget, not a label per field: each widget mounted costs the first frame about half
    a millisecond (a message pump, styles, compose, layout), and the meter's nine were 6 ms
    of it. The fields' colours are component classes, styled in kiln.tcss; the mode's and
    the budget's variants are classes of the meter (`-mode-plan`, `-warning`), so Textual
    styles a few components (each as often as the meter itself: they are not free)."""

    COMPONENT_CLASSES = set(filter(None, LEFT_FIELDS.values()))

    reading: var[MeterReading] = var(MeterReading(), init=False)

    def __init__(self, state: MeterState, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.state = state
        # The mode's class from the start: added once mounted, it styled the meter again.
        self.add_class(MeterReading.of(state).mode_class, update=False)
        self._clock: Timer | None = None
        self._run_started: float | None = None
        self._elapsed_before = 0.0

    def on_mount(self) -> None:
        self.show()  # never equal to the blank default reading: the watcher draws it

    def show(self) -> None:
        self.reading = MeterReading.of(self.state)

    def watch_reading(self, old: MeterReading, new: MeterReading) -> None:
        if new.mode_class != old.mode_class:
            self.remove_class(*filter(None, [old.mode_class]))  # the first reading has none
            self.add_class(new.mode_class)  # as it is from the start: no new styles
        self.set_class(new.warning, "-warning")
        self.refresh()

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        background = Style(bgcolor=self.rich_style.bgcolor)
        left = [s for field in LEFT_FIELDS.items() for s in self._field(*field)]
        clock = self._field(*CLOCK)
        room = max(0, width - sum(s.cell_length for s in clock))
        line = Strip(left).crop_extend(0, room, background)
        return Strip([*line, *clock]).crop(0, width)

    def _field(self, name: str, component: str) -> list[Segment]:
        """A field's segments: its text in its style, a cell of space either side in its
        background, as a label with `padding: 0 1` draws them; none for an empty one."""
        text = getattr(self.reading, name)
        if not text:  # the sandbox under Docker, the bar without a budget
            return []
        style = self.get_component_rich_style(component) if component else self.rich_style
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
