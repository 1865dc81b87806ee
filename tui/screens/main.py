"""The main screen: meter on top, transcript and side panel, prompt at the bottom."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, Static

from agent.events import Event, FilesChanged, PhaseChanged, PlanUpdated
from tui.history import PromptHistory
from tui.meter_state import MeterState
from tui.widgets.meter import Meter
from tui.widgets.prompt import PromptInput
from tui.widgets.side_panel import SidePanel
from tui.widgets.transcript import Transcript

METER_REFRESH_S = 0.1  # the meter redraws at most ten times a second while tokens stream


class MainScreen(Screen[None]):
    def __init__(self, meter_state: MeterState, history: PromptHistory) -> None:
        super().__init__()
        self.meter_state = meter_state
        self.history = history
        self._meter_dirty = False

    def compose(self) -> ComposeResult:
        yield Meter(self.meter_state, id="meter")
        with Horizontal(id="body"):
            yield Transcript(id="transcript")
            yield SidePanel(id="side")
        yield Static(id="completions")
        yield PromptInput(self.history, id="prompt")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#completions").display = False
        self.query_one(PromptInput).focus()
        self.set_interval(METER_REFRESH_S, self._redraw_meter)

    @property
    def transcript(self) -> Transcript:
        return self.query_one(Transcript)

    @property
    def side(self) -> SidePanel:
        return self.query_one(SidePanel)

    @property
    def meter(self) -> Meter:
        return self.query_one(Meter)

    @property
    def prompt(self) -> PromptInput:
        return self.query_one(PromptInput)

    async def show(self, event: Event) -> None:
        """Hand one event to every widget that draws it."""
        if self.meter_state.apply(event):
            self._meter_dirty = True
        if isinstance(event, PhaseChanged | PlanUpdated | FilesChanged):
            self.side.show(event)
        await self.transcript.show(event)

    def redraw_meter_now(self) -> None:
        self._meter_dirty = False
        self.meter.show()

    def _redraw_meter(self) -> None:
        if self._meter_dirty:
            self.redraw_meter_now()

    @on(PromptInput.CompletionsChanged)
    def _show_completions(self, event: PromptInput.CompletionsChanged) -> None:
        box = self.query_one("#completions", Static)
        box.display = bool(event.matches)
        if event.matches:
            lines = [f"/{c.name} {c.arg}".ljust(18) + c.help for c in event.matches]
            box.update(Text("\n".join(lines[:6]) + "\nTab completes"))
