"""`kiln chat`: the Textual app, or with `--plain` the same session in a prompt-toolkit REPL.

Line mode never imports Textual. Ctrl+C while a request runs interrupts that step
(the session goes on); Ctrl+C twice at the prompt, Ctrl+D or /quit leave, with the
sandbox removed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import time

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import FileHistory
from rich.console import Console
from rich.syntax import Syntax

from agent.errors import KilnError
from tui import commands
from tui.history import history_file
from tui.launch import Launch, launch_from_args
from tui.line_render import LineApprover, LineRenderer
from tui.meter_state import MeterState

QUIT_WINDOW_S = 2.0


class SlashCompleter(Completer):
    def get_completions(self, document: Document, complete_event: CompleteEvent):  # type: ignore[override]
        for command in commands.completions(document.text_before_cursor):
            yield Completion(
                f"/{command.name}",
                start_position=-len(document.text_before_cursor),
                display_meta=command.help,
            )


class LineMode:
    def __init__(self, launch: Launch, console: Console | None = None) -> None:
        self.launch = launch
        self.console = console or Console(highlight=False)
        profile = launch.settings.main_model
        self.meter = MeterState(
            model=profile.model if profile else "",
            mode=launch.mode.value,
            budget_usd=launch.settings.limits.budget_usd,
        )
        self.renderer = LineRenderer(self.console, self.meter)
        self.approver = LineApprover(self.renderer)
        history_file().parent.mkdir(parents=True, exist_ok=True)
        self.prompt: PromptSession[str] = PromptSession(
            history=FileHistory(str(history_file())), completer=SlashCompleter()
        )
        self.session = None
        self._quit = False

    async def run(self) -> int:
        from agent.session import Session

        launch = self.launch
        if launch.resume:
            session = Session.load(launch.resume, launch.settings, self.approver, mode=launch.mode)
            for event in list(session.events):
                self.renderer.show(event)
        else:
            session = Session(launch.settings, launch.repo, self.approver, launch.mode)
        self.session = session
        self.renderer.note(f"starting the {launch.settings.sandbox.backend} sandbox…")
        try:
            await session.start()
            self.renderer.note(
                f"Working on {launch.repo} in {launch.mode.value} mode. /help lists commands."
            )
            await self._repl()
        finally:
            self.renderer.note("removing the sandbox…")
            await session.close()
        return 0

    async def _repl(self) -> None:
        last_ctrl_c = 0.0
        while not self._quit:
            try:
                text = await self.prompt.prompt_async(f"kiln [{self.meter.mode}]> ")
            except EOFError:
                return
            except KeyboardInterrupt:
                if time.monotonic() - last_ctrl_c <= QUIT_WINDOW_S:
                    return
                last_ctrl_c = time.monotonic()
                self.renderer.note("Press Ctrl+C again (or Ctrl+D) to quit.")
                continue
            if not text.strip():
                continue
            parsed = commands.parse(text)
            try:
                if parsed is not None:
                    await self.slash(parsed)
                else:
                    await self.run_task(text.removeprefix("/"))
            except KilnError as exc:
                self.renderer.note(exc.message, "error")

    async def run_task(self, task: str) -> None:
        assert self.session is not None
        session = self.session
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signal.SIGINT, self._interrupt)
        try:
            async for event in session.run(task):
                self.renderer.show(event)
        finally:
            self.renderer.pause()
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(signal.SIGINT)

    def _interrupt(self) -> None:
        assert self.session is not None
        self.renderer.note("interrupting the current step…", "warning")
        self.session.cancel()

    async def slash(self, parsed: commands.ParsedCommand) -> None:
        assert self.session is not None
        session, say = self.session, self.renderer.note
        name, arg = parsed.name, parsed.arg
        if name == "mode":
            mode = commands.parse_mode(arg) if arg else None
            if mode is None:
                say(f"Mode: {self.meter.mode}; choose from plan, ask, auto-edit, full-auto.")
                return
            session.mode = mode
            self.meter.mode = mode.value
            say(f"Mode: {mode.value}.")
        elif name == "diff":
            diff = await session.diff()
            if diff.strip():
                self.console.print(Syntax(diff, "diff", theme="ansi_dark", word_wrap=True))
            else:
                say("The sandbox has no changes.")
        elif name == "apply":
            await self.apply()
        elif name == "undo":
            say(f"Undone: {await session.undo()}")
        elif name == "cost":
            say("\n".join(self.meter.summary_lines()))
        elif name == "model":
            if not arg:
                rows = [f"In use: {session.profile.model}; /model NAME switches."]
                rows += [
                    f"{n}: {p.model} at {p.base_url}"
                    for n, p in self.launch.settings.models.items()
                ]
                say("\n".join(rows))
                return
            profile = await session.switch_model(arg)
            self.meter.model = profile.model
            say(f"Model: {profile.model} at {profile.base_url}.")
        elif name in ("review", "compact"):
            say(f"/{name} is coming later; it is not in this build yet.", "warning")
        elif name == "sessions":
            say(
                "Stored sessions: run `kiln sessions list`; reopen one with `kiln chat --plain --resume ID`."
            )
        elif name == "theme":
            say("Themes apply to the full-screen app; line mode uses your terminal's colours.")
        elif name == "help":
            say(
                "\n".join(
                    [*commands.help_lines(), "", "Ctrl+C interrupts a running step; Ctrl+D quits."]
                )
            )
        elif name == "quit":
            self._quit = True
        else:
            say(f"There is no /{name}; /help lists the commands.", "warning")

    async def apply(self) -> None:
        """The session prints the combined diff and asks (unless full-auto) before writing."""
        assert self.session is not None
        if not (await self.session.diff()).strip():
            self.renderer.note("The sandbox has no changes to apply.")
            return
        written = await self.session.apply()
        if written:
            self.renderer.note(f"Applied: {', '.join(written)}.", "success")
        else:
            self.renderer.note("Not applied; your working tree is unchanged.")


def main(args: argparse.Namespace) -> int:
    """Handler of `kiln chat [--plain]`."""
    if not getattr(args, "plain", False):
        from tui.app import main as app_main

        return app_main(args)
    return asyncio.run(LineMode(launch_from_args(args)).run())
