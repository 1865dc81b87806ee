"""`kiln` with no subcommand: the Textual app on the current repository.

The app talks to the core only through `agent.session.Session` and the shared command
layer (`agent.commands`): it shows the events the session's streams yield, answers
approvals with a modal (`TuiApprover`), and draws what the commands yield. Anything slow
runs in a worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import os
import signal
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from textual import on, work
from textual.app import App
from textual.binding import Binding
from textual.theme import Theme

import themes
from agent.approval import Mode, next_mode
from agent.errors import KilnError
from tui.approver import TuiApprover
from tui.history import PromptHistory
from tui.meter_state import MeterState
from tui.painting import painted
from tui.screens.main import MainScreen
from tui.widgets.prompt import PromptInput
from tui.widgets.side_panel import SidePanel

if TYPE_CHECKING:
    import argparse

    from textual.command import Provider

    from agent.commands import Commands, Output
    from agent.events import Event, Finished
    from agent.llm.base import ModelClient
    from agent.session import Session
    from agent.session.opening import TrustQuestion
    from agent.settings.config import Settings

QUIT_WINDOW_S = 2.0
STORED_FIRST = 100  # a resumed session's last events drawn before the session loads
FREEZE_EVERY = 25  # steps between moving the survivors out of the collector's view
YOUNG_COLLECTION_EVERY = 20_000  # allocations (Python's default: 700)
HANG_UP_GRACE_S = 3.0  # after the terminal closed and the session is closed
T = TypeVar("T")
KEYS_HELP = [
    "Enter sends · Ctrl+J or Shift+Enter adds a line · Up/Down browse history",
    "Esc interrupts the current step · Shift+Tab cycles the mode · Ctrl+P command palette",
    "Ctrl+F finds in the whole transcript (Enter again: the one before; Esc closes)",
    "Ctrl+C twice quits (the sandbox is removed)",
]


def _slash_commands_provider() -> type[Provider]:
    """The palette's slash commands, imported when the palette first opens."""
    from tui.palette import SlashCommandProvider

    return SlashCommandProvider


class KilnApp(App[int]):
    CSS_PATH = str(Path(__file__).with_name("kiln.tcss"))
    TITLE = "kiln"
    COMMANDS = App.COMMANDS | {_slash_commands_provider}
    BINDINGS = [
        Binding("escape", "interrupt", "interrupt", priority=True),
        Binding("shift+tab", "cycle_mode", "mode", priority=True),
        Binding("ctrl+c", "ctrl_c", "quit (twice)", priority=True, show=False),
        Binding("ctrl+q", "quit_kiln", "quit", priority=True),
    ]

    def __init__(
        self,
        settings: Settings,
        repo: Path,
        mode: Mode = Mode.ASK,
        *,
        resume: str | None = None,
        client: ModelClient | None = None,
        connect: bool = True,
    ) -> None:
        super().__init__()
        self.settings = settings
        self.repo = repo
        self.approver = TuiApprover(self)
        self.resume = resume
        self.client = client
        self.connect = connect  # False: draw events without a session (snapshots, benches)
        profile = settings.main_model
        self.meter_state = MeterState(
            model=profile.model if profile else "",
            mode=mode.value,
            budget_usd=settings.limits.budget_usd,
            max_tokens=settings.limits.max_tokens,
        )
        self._mode = mode  # the commands' first mode, once they are made
        self.session: Session | None = None
        self.running = False
        self.closed = False
        self._last_ctrl_c = 0.0
        self._theme_ready = False
        self._drawn_stored = 0  # how many of a resumed session's last events were drawn
        self.theme_problems: list[str] = []
        self.user_theme_names: list[str] = []
        # Chosen before the stylesheet is first parsed: switching later parses it all again.
        self._register_themes()

    # --- set-up -------------------------------------------------------------------

    def on_mount(self) -> None:
        # Closing the terminal (SIGHUP) ends kiln as Ctrl+C twice does: the sandbox goes too.
        with contextlib.suppress(NotImplementedError, RuntimeError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, self._hang_up)
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        self._theme_ready = True
        self.call_after_refresh(self._after_first_frame)

    def get_default_screen(self) -> MainScreen:
        # The main screen is the first on the stack, not pushed over Textual's blank default:
        # that one was composed, styled and laid out for a frame nobody sees.
        return MainScreen(self.meter_state, PromptHistory())

    def _register_themes(self) -> None:
        for theme in themes.KILN_THEMES.values():
            self.register_theme(theme)
        user_themes, self.theme_problems = themes.load_user_themes()
        for theme in user_themes:
            self.register_theme(theme)
            self.user_theme_names.append(theme.name)
        wanted = themes.initial_theme(
            self.settings.ui.theme, self.settings.sources.get("ui.theme", "default")
        )
        name = wanted if wanted in self.available_themes else themes.DEFAULT_THEME
        wanted_theme = self.get_theme(name)
        if wanted_theme is None or wanted_theme.dark != self.current_theme.dark:
            self.theme = name
            return
        # Nothing is parsed or drawn yet: the theme's variables and class are set as
        # Textual's watcher sets them, without the reparse of every stylesheet it queues
        # (the first parse done twice: 5 ms of the first frame). Its ANSI colours follow
        # dark or light only, and that is unchanged.
        self.set_reactive(App.theme, name)
        self.stylesheet.set_variables(self.get_css_variables())
        self.set_class(True, f"-theme-{name}", update=False)

    def _remember_theme(self, theme: Theme) -> None:
        if self._theme_ready:
            themes.remember_theme(theme.name)

    def kiln_theme_names(self) -> list[str]:
        return [*themes.KILN_THEMES, *self.user_theme_names]

    async def _after_first_frame(self) -> None:
        # Everything loaded so far (Textual, the app, its widgets) lives as long as the app:
        # moved out of the collector's view, a full collection no longer walks it. Measured
        # while streaming 2,000 tok/s: full collections of 20-30 ms every few tenths of a
        # second were the slowest frames. `kiln` starts with the collector off (agent/cli.py).
        gc.freeze()
        # Young collections every 20,000 allocations rather than 700: each full one (every
        # hundred young ones) took 55-100 ms late in a long session, and one that fell
        # inside a streamed reply was its slowest frame. Dead cycles wait longer, not more.
        gc.set_threshold(YOUNG_COLLECTION_EVERY, *gc.get_threshold()[1:])
        gc.enable()
        if self.connect and self.resume:
            await self._draw_stored(self.resume)  # the session starts once they are painted
        # After a resumed session's end, not above it: what is said now is seen first.
        for problem in [*self.theme_problems, *self.commands.custom.notes]:
            await self.main.transcript.note(problem, "warning")
        if self.connect:
            self.start_session()

    async def _draw_stored(self, resume: str) -> bool:
        """A resumed session's end drawn from the store first, before the session and its
        imports load; a store that cannot be read is said once the session opens."""
        from agent.store.codec import stored_events
        from agent.store.db import Store

        try:
            store = Store()
            try:
                events = stored_events(store, resume, last=STORED_FIRST)
            finally:
                store.close()
        except KilnError:
            return False
        if not events:
            return False
        await self.main.replay(events)
        self._drawn_stored = len(events)
        return True

    @functools.cached_property
    def commands(self) -> Commands:
        """The slash commands, made on first use, after the first frame: they import the
        event types (thirty frozen dataclasses, 15-25 ms of CPU) and read the folders of
        custom commands, none of which the first screen shows."""
        from agent.commands import Commands

        return Commands(self.settings, self._mode, KEYS_HELP, self.repo)

    @property
    def main(self) -> MainScreen:
        for screen in self.screen_stack:
            if isinstance(screen, MainScreen):
                return screen
        raise LookupError("the main screen is not open")

    async def show(self, event: Event) -> None:
        await self.main.show(event)

    async def present(self, output: Output) -> None:
        """Draw one thing a slash command yielded."""
        from agent.commands import RunTask, Say, ShowDiff, ShowReview

        if isinstance(output, RunTask):  # a custom command: its prompt runs as the task
            await self.main.transcript.note(output.text)
            if self.running:
                self.notify("kiln is still working: wait, or press Esc to interrupt.")
            else:
                self.run_task(output.task)
        elif isinstance(output, ShowReview) and output.result is not None:
            from tui.screens.review import ReviewScreen

            await self.main.transcript.note(output.text.splitlines()[0], output.level)
            self.push_screen(ReviewScreen(output.result))
        elif isinstance(output, Say):
            await self.main.transcript.note(output.text, output.level)
        elif isinstance(output, ShowDiff):
            from tui.screens.diff import DiffScreen

            self.push_screen(DiffScreen(output.title, output.diff))
        else:
            await self.show(output)

    # --- the session --------------------------------------------------------------

    @work(exclusive=True, group="session", exit_on_error=False)
    async def start_session(self) -> None:
        if self._drawn_stored:
            # A resumed session's end, drawn from the store, is painted before the session's
            # imports and its read of the store hold the loop for a few tenths of a second.
            await painted(self.main)
        await self._open_session()

    async def _open_session(self) -> Session | None:
        """Create and start the session; a failure is one sentence in the transcript."""
        from agent.session.opening import open_session  # the core loads after the first frame
        from agent.settings.resolve import NoModelConfigured

        side = self.main.side
        try:
            opened = await open_session(
                self.settings, self.repo, self.approver, self.commands.mode, self._ask_trust,
                resume=self.resume, client=self.client,
            )  # fmt: skip
            session = opened.session
            if opened.trusted:
                self.settings = self.commands.settings = opened.settings
                await self.main.transcript.note(f"Trusted {self.repo}'s {opened.trusted}.")
            side.set_sandbox(f"starting {self.settings.sandbox.backend}…")
            # A resumed session's: its last steps were drawn from the store (how it ended,
            # first); the steps before them join the transcript above, as data.
            drawn = self._drawn_stored
            if drawn:
                await self.main.transcript.replay_before(
                    session.events[: len(session.events) - drawn]
                )
            else:
                await self.main.replay(session.events)
            self.session = self.commands.session = session
            session.on_progress = lambda line: side.set_sandbox(f"setting up · {line[:60]}")
            session.on_job_between = self.main.deliver  # a job ending while kiln waits
            await session.start()
        except NoModelConfigured as exc:
            side.set_sandbox("waiting for a model", "error")
            self.session = self.commands.session = None
            await self.main.transcript.note(exc.message, "warning")
            self.offer_local_install()
            return None
        except KilnError as exc:
            side.set_sandbox("not running", "error")
            self.session = self.commands.session = None  # the next task tries again
            await self.main.transcript.note(exc.message, "error")
            return None
        side.set_sandbox(f"ready · {session.backend}")
        self.meter_state.backend = session.backend  # the meter flags a sandbox without limits
        # The model the session resolved (the embedded one, a server found running): named
        # now, not at the first request, which is when its SessionStarted is sent.
        self.meter_state.model = session.profile.model or self.meter_state.model
        self.main.redraw_meter_now()
        for note in session.start_notes:
            await self.main.transcript.note(note, "warning")
        await self.main.transcript.note(
            f"Working on {self.repo} in {self.commands.mode.value} mode."
        )
        return session

    async def _ask_trust(self, question: TrustQuestion) -> bool:
        from tui.screens.confirm import ConfirmScreen

        screen = ConfirmScreen(question.question, question.detail, yes="Trust [y]")
        trusted: bool = await self.push_screen_wait(screen)
        return trusted

    @work(exclusive=True, group="install", exit_on_error=False)
    async def offer_local_install(self) -> None:
        """First run with no model anywhere: offer the embedded local model, then start."""
        from agent import local

        if local.is_installed():
            return  # installed but failed to start: the note already says what to do
        from tui.screens.confirm import ConfirmScreen

        question = ConfirmScreen(
            "Install the embedded local model?",
            f"{local.DEFAULT_MODEL}: about 1 GB of weights plus a runtime built from source "
            "(several minutes on a small machine). Everything stays on this computer.",
            yes="Install [y]",
        )
        if not await self.push_screen_wait(question):
            await self.main.transcript.note("Not installed. " + local.INSTALL_HINT + ".")
            return
        transcript = self.main.transcript
        await transcript.note("Installing the local model…")
        try:
            async for step in _in_thread(local.install_steps()):
                if step.detail:
                    self.main.side.set_sandbox(step.message[-30:])
                else:
                    await transcript.note(step.message)
        except KilnError as exc:
            await transcript.note(exc.message, "error")
            return
        self.start_session()

    @work(exclusive=True, group="run", exit_on_error=False)
    async def run_task(self, task: str) -> None:
        from agent.commands import NOT_READY
        from agent.events import Finished, StopReason, TurnStarted

        session = self.session
        if session is None and self.connect:
            await self.main.transcript.note("Starting the session again…")
            session = await self._open_session()  # says why, if it fails again
        if session is None:
            if not self.connect:
                await self.main.transcript.note(NOT_READY, "warning")
            return
        self.running = True
        self.main.meter.start_clock()
        finished: Finished | None = None
        try:
            await self.main.transcript.add_user(task)
            async for event in session.run(task):
                self.main.deliver(event)  # as a message: the widgets draw it in order
                if isinstance(event, TurnStarted) and event.step % FREEZE_EVERY == 0:
                    _freeze_survivors()
                finished = event if isinstance(event, Finished) else finished
        except KilnError as exc:
            await self.main.drained()
            await self.main.transcript.note(exc.message, "error")
        finally:
            await self.main.drained()  # "not running" means everything is on screen
            self.running = False
            self.main.meter.stop_clock()
            self.main.redraw_meter_now()
        done = finished is not None and finished.stop_reason is StopReason.DONE
        if done and self.commands.offers_apply():
            # The diff is offered right away: y writes it, n keeps it in the sandbox.
            async for output in self.commands.apply(offered=True):
                await self.present(output)

    @on(SidePanel.DiffRequested)
    def _file_chosen(self, message: SidePanel.DiffRequested) -> None:
        self._show_file_diff(message.path)

    @work(group="slash", exit_on_error=False)
    async def _show_file_diff(self, path: str) -> None:
        """A changed file chosen in the side panel: its part of the sandbox's diff."""
        from agent.commands import ShowDiff
        from tui.diff_parse import diff_for_file

        if self.session is None:
            return
        try:
            diff = diff_for_file(await self.session.diff(), path)
        except KilnError as exc:
            await self.main.transcript.note(exc.message, "error")
            return
        await self.present(ShowDiff(f"Changes in {path}", diff))

    def run_slash(self, line: str) -> None:
        self._slash(line)

    def fill_prompt(self, line: str) -> None:
        """The palette's choice of a command that takes words: typed for the person to finish."""
        self.main.prompt.load_text(line)
        self.main.prompt.move_cursor(self.main.prompt.document.end)
        self.main.prompt.focus()

    @work(group="slash", exit_on_error=False)
    async def _slash(self, line: str) -> None:
        from agent.commands import parse

        parsed = parse(line)
        if parsed is None:
            return
        if parsed.name == "quit":
            self.action_quit_kiln()
        elif parsed.name == "theme":
            await self._theme(parsed.arg)
        elif parsed.name == "queue":
            from tui.screens.queue import QueueScreen

            self.push_screen(
                QueueScreen(self.repo, self.session.session_id if self.session else "")
            )
        else:
            async for output in self.commands.run(line):
                await self.present(output)

    async def _theme(self, arg: str) -> None:
        names = ", ".join(self.kiln_theme_names())
        note = self.main.transcript.note
        if not arg:
            await note(f"Theme: {self.theme} (choose from {names}).")
        elif arg not in self.available_themes:
            await note(f"There is no theme `{arg}`; choose from {names}.", "warning")
        else:
            self.theme = arg  # remembered by the theme-changed signal
            await note(f"Theme: {arg}.")

    async def on_prompt_input_submitted(self, message: PromptInput.Submitted) -> None:
        text = message.text
        if text.strip().startswith("/") and not text.strip().startswith("//"):
            self.run_slash(text)
        elif self.running:
            self.main.prompt.load_text(text)
            self.notify("kiln is still working: wait, or press Esc to interrupt.")
        else:
            self.run_task(text.removeprefix("/"))

    # --- keys ---------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Over a screen that Esc closes (a diff), Esc belongs to that screen.
        # So does Esc in the transcript's find bar: it closes the bar.
        closes = getattr(self.screen, "ESCAPE_CLOSES", False) or getattr(
            self.screen, "finding", False
        )
        return not (action == "interrupt" and closes)

    def action_interrupt(self) -> None:
        if self.running and self.session is not None:
            self.session.cancel()
            self.notify("Interrupting the current step…")

    def action_cycle_mode(self) -> None:
        if len(self.screen_stack) > 1 and not isinstance(self.screen, MainScreen):
            return
        self.call_later(self.show, self.commands.set_mode(next_mode(self.commands.mode)))

    def action_ctrl_c(self) -> None:
        now = time.monotonic()
        if now - self._last_ctrl_c <= QUIT_WINDOW_S:
            self.action_quit_kiln()
            return
        self._last_ctrl_c = now
        self.notify("Press Ctrl+C again to quit (the sandbox is removed).")

    @work(exclusive=True, group="quit", exit_on_error=False)
    async def action_quit_kiln(self) -> None:
        await self.close_session()
        self.exit(0)

    @work(exclusive=True, group="quit", exit_on_error=False)
    async def _hang_up(self) -> None:
        """The terminal is gone: close the session (the sandbox goes), then end. Textual's
        own exit restores the terminal first, which can block on a terminal that no longer
        exists, so the process ends regardless a few seconds later."""
        await self.close_session()
        last_resort = threading.Timer(HANG_UP_GRACE_S, os._exit, (129,))  # 128 + SIGHUP
        last_resort.daemon = True  # a clean exit does not wait for it
        last_resort.start()
        self.exit(129)

    async def close_session(self, *, shown: bool = True) -> None:
        if self.session is None or self.closed:
            return
        self.closed = True
        if self.running:
            self.session.cancel()
        if shown:
            self.main.side.set_sandbox("removing…")
        try:
            await self.session.close()
        except KilnError as exc:
            if shown:
                self.notify(exc.message, severity="error")

    async def on_unmount(self) -> None:
        """Every other way the app ends (Textual's own exit, a crash, a screenshot's timer,
        a test's pilot) closes the session here, on the app's loop while it still runs: the
        sandbox's tasks live on it, and a new loop after `run()` cannot end them."""
        await self.close_session(shown=False)


def _freeze_survivors() -> None:
    """Every few steps, what the steps before left (events, entries, the conversation)
    moves out of the collector's view, as the app's own objects did after the first frame.
    Once frozen, the collector counts nothing as long-lived, so a full collection came
    every few hundred milliseconds and walked every object made since: measured in a
    30-step session, 48 full collections of up to 190 ms, the streaming lag growing with
    the steps. A full collection first, so no dead cycle is frozen with the living (frozen
    after a young collection only, 300 steps took 155 MB where 100 MB was enough)."""
    gc.collect()
    gc.freeze()


async def _in_thread(steps: Iterator[T]) -> AsyncIterator[T]:
    """Drive a blocking generator in a thread, one item at a time, without blocking the UI."""
    done = object()
    while True:
        item = await asyncio.to_thread(next, steps, done)
        if item is done:
            return
        yield item  # type: ignore[misc]


def main(args: argparse.Namespace) -> int:
    """Handler of bare `kiln` (and `kiln chat` without --plain)."""
    from tui.launch import launch_from_args

    launch = launch_from_args(args)
    app = KilnApp(launch.settings, launch.repo, launch.mode, resume=launch.resume)
    try:
        code = app.run()
    finally:
        if app.session is not None and not app.closed:
            # The app ended without /quit or Ctrl+C twice (a crash): still remove the sandbox.
            with contextlib.suppress(Exception):
                asyncio.run(app.session.close())
    return code or 0
