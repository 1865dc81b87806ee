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


class MainScreen(Screen[None]):
    """Hands each event to the widgets that draw it. They hold what they show in reactives,
    so a change repaints on the next frame (Textual coalesces refreshes to the frame rate)
    and an unchanged value repaints nothing: no timer batches the meter."""

    def __init__(self, meter_state: MeterState, history: PromptHistory) -> None:
        super().__init__()
        self.meter_state = meter_state
        self.history = history

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
            self.redraw_meter_now()
        if isinstance(event, PhaseChanged | PlanUpdated | FilesChanged):
            self.side.show(event)
        await self.transcript.show(event)

    def redraw_meter_now(self) -> None:
        """Take a fresh reading of the meter state (after a change made outside `show`)."""
        self.meter.show()

    @on(PromptInput.CompletionsChanged)
    def _show_completions(self, event: PromptInput.CompletionsChanged) -> None:
        box = self.query_one("#completions", Static)
        box.display = bool(event.matches)
        if event.matches:
            lines = [f"/{c.name} {c.arg}".ljust(18) + c.help for c in event.matches]
            box.update(Text("\n".join(lines[:6]) + "\nTab completes"))
