"""The main screen: meter on top, transcript and side panel, prompt at the bottom."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from tui.history import PromptHistory
from tui.meter_state import MeterState
from tui.widgets.footer import KilnFooter
from tui.widgets.meter import Meter
from tui.widgets.prompt import PromptInput
from tui.widgets.side_panel import SidePanel
from tui.widgets.transcript import Transcript

if TYPE_CHECKING:
    from textual.widgets import Input

    from agent.events import Event
    from tui.widgets.find_bar import FindBar

DRAIN_TIMEOUT_S = 10.0


class SessionEvent(Message):
    """One event of the session's stream, on its way to the widgets that draw it."""

    def __init__(self, event: Event) -> None:
        super().__init__()
        self.event = event


class Drained(Message):
    """Sent after a stream's last event: handled once every event before it is drawn."""

    def __init__(self) -> None:
        super().__init__()
        self.done = asyncio.Event()


class MainScreen(Screen[None]):
    """Hands each event to the widgets that draw it. They hold what they show in reactives,
    so a change repaints on the next frame (Textual coalesces refreshes to the frame rate)
    and an unchanged value repaints nothing: no timer batches the meter."""

    BINDINGS = [Binding("ctrl+f", "find", "find", show=False)]

    def __init__(self, meter_state: MeterState, history: PromptHistory) -> None:
        super().__init__()
        self.meter_state = meter_state
        self.history = history
        self._found_at: int | None = None  # the entry the last search found
        # Mounted with the first "/" typed: hidden until then, it only slowed the first
        # frame (each widget mounted costs it about half a millisecond).
        self._completions: Static | None = None
        self._find: FindBar | None = None  # mounted with the first Ctrl+F

    def compose(self) -> ComposeResult:
        yield Meter(self.meter_state, id="meter")
        with Horizontal(id="body"):
            yield Transcript(id="transcript")
            yield SidePanel(id="side")
        yield PromptInput(self.history, id="prompt")
        yield KilnFooter()

    def on_mount(self) -> None:
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

    async def on_session_event(self, message: SessionEvent) -> None:
        await self.show(message.event)

    def on_drained(self, message: Drained) -> None:
        message.done.set()

    def deliver(self, event: Event) -> None:
        """Queue `event` for drawing: the stream's reader never waits for the screen."""
        self.post_message(SessionEvent(event))

    async def drained(self) -> None:
        """Return once every event delivered so far is drawn."""
        drained = Drained()
        if self.post_message(drained):  # False once the screen is closing: nothing to wait for
            with contextlib.suppress(TimeoutError):  # a screen that stopped reading
                await asyncio.wait_for(drained.done.wait(), DRAIN_TIMEOUT_S)

    async def show(self, event: Event) -> None:
        """Hand one event to every widget that draws it."""
        # The event types load after the first frame (the screen is drawn before any event).
        from agent.events import FilesChanged, JobStarted, JobStopped, PhaseChanged, PlanUpdated

        if self.meter_state.apply(event):
            self.redraw_meter_now()
        if isinstance(event, PhaseChanged | PlanUpdated | FilesChanged | JobStarted | JobStopped):
            self.side.show(event)
        await self.transcript.show(event)

    async def replay(self, events: Sequence[Event]) -> None:
        """A stored session's events: the meter and side panel folded to where it ended,
        the transcript's last screen drawn first."""
        from agent.events import FilesChanged, PhaseChanged, PlanUpdated

        for event in events:
            self.meter_state.apply(event)
        for kind in (PhaseChanged, PlanUpdated, FilesChanged):  # the last of each is shown
            last = next((e for e in reversed(events) if isinstance(e, kind)), None)
            if last is not None:
                self.side.show(last)
        self.redraw_meter_now()
        await self.transcript.replay(events)

    # --- finding in the transcript ---------------------------------------------------

    @property
    def finding(self) -> bool:
        """The find bar is open (Esc closes it rather than interrupting). Asked for every
        binding the footer shows, at each change of focus or bindings: a query here walked
        every widget on the screen each time (a resumed session's first paint ran it 35
        times)."""
        return self._find is not None and self._find.display

    async def action_find(self) -> None:
        from tui.widgets.find_bar import FindBar  # the first search loads it

        if self._find is None:
            self._find = FindBar()
            await self.mount(self._find, before=self._completions or self.prompt)
        find = self._find
        find.display = True
        find.focus()

    def on_find_bar_closed(self, message: FindBar.Closed) -> None:
        self._found_at = None
        self.prompt.focus()

    def on_input_changed(self, message: Input.Changed) -> None:
        if message.input.id == "find":
            self._found_at = None  # a new query starts from the end again

    async def on_input_submitted(self, message: Input.Submitted) -> None:
        if message.input.id != "find" or not message.value.strip():
            return
        message.stop()
        await self.find(message.value)

    async def find(self, query: str) -> int | None:
        """Show the block before the last one found (from the end at first) that holds
        `query`, mounted or not; a tool call it names is opened."""
        index = self.transcript.find(query, before=self._found_at)
        if index is None:
            self.notify(
                f"No {'earlier ' if self._found_at is not None else ''}block holds {query!r}."
            )
            return None
        self._found_at = index
        await self.transcript.reveal(index, expand=True)
        return index

    def redraw_meter_now(self) -> None:
        """Take a fresh reading of the meter state (after a change made outside `show`)."""
        self.meter.show()

    @on(PromptInput.CompletionsChanged)
    def _show_completions(self, event: PromptInput.CompletionsChanged) -> None:
        if self._completions is None:
            if not event.matches:
                return
            self._completions = Static(id="completions")
            self.mount(self._completions, before=self.prompt)
        box = self._completions
        box.display = bool(event.matches)
        if event.matches:
            width = max(18, *(len(c.name) + len(c.arg) + 3 for c in event.matches))
            lines = [f"/{c.name} {c.arg}".ljust(width) + c.help for c in event.matches]
            box.update(Text("\n".join(lines[:6]) + "\nTab completes"))
