"""`kiln chat`: the Textual app, or with `--plain` the same session in a prompt-toolkit REPL.

Line mode never imports Textual. Ctrl+C while a request runs interrupts that step
(the session goes on); Ctrl+C twice at the prompt, Ctrl+D or /quit leave, with the
sandbox removed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import signal
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import FileHistory
from rich.console import Console
from rich.syntax import Syntax

from agent import commands
from agent.errors import KilnError
from agent.events import Finished, StopReason
from agent.present import escape_controls
from tui.history import history_file
from tui.launch import Launch, launch_from_args
from tui.line_render import LineApprover, LineRenderer
from tui.meter_state import MeterState

if TYPE_CHECKING:
    from agent.session import Session
    from agent.session.opening import TrustQuestion

QUIT_WINDOW_S = 2.0
KEYS_HELP = ["Ctrl+C interrupts a running step; Ctrl+D quits."]


class SlashCompleter(Completer):
    def __init__(self, known: commands.Commands) -> None:
        self.known = known  # the session's, with its custom commands

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterator[Completion]:
        for command in self.known.completions(document.text_before_cursor):
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
            max_tokens=launch.settings.limits.max_tokens,
        )
        self.renderer = LineRenderer(self.console, self.meter)
        self.approver = LineApprover(self.renderer)
        self.commands = commands.Commands(launch.settings, launch.mode, KEYS_HELP, launch.repo)
        history_file().parent.mkdir(parents=True, exist_ok=True)
        self.prompt: PromptSession[str] = PromptSession(
            history=FileHistory(str(history_file())), completer=SlashCompleter(self.commands)
        )
        self.session: Session | None = None
        self._quit = False

    async def _ask_trust(self, question: TrustQuestion) -> bool:
        self.renderer.note(question.detail, "warning")
        answer = await self.prompt.prompt_async(f"{question.question} [y/N] ")
        return answer.strip().lower() in ("y", "yes")

    async def run(self) -> int:
        """The REPL; a failure to start (no engine, no model) is one sentence (KilnError)."""
        from agent.session.opening import open_session

        launch = self.launch
        opened = await open_session(
            launch.settings, launch.repo, self.approver, launch.mode, self._ask_trust,
            resume=launch.resume,
        )  # fmt: skip
        session = opened.session
        self.commands.settings = opened.settings
        for event in list(session.events):  # a resumed session's, drawn again
            self.renderer.show(event)
        self.session = self.commands.session = session
        self.renderer.note(f"starting the {launch.settings.sandbox.backend} sandbox…")
        session.on_progress = lambda line: self.renderer.note(f"setup | {line}")
        try:
            await session.start()
            for note in [*session.start_notes, *self.commands.custom.notes]:
                self.renderer.note(note, "warning")
            self.renderer.note(
                f"Working on {launch.repo} in {launch.mode.value} mode ({session.backend} "
                "sandbox). /help lists commands."
            )
            await self._repl()
        finally:
            if session.sandbox is not None:
                with contextlib.suppress(OSError):  # the terminal may be gone (SIGHUP)
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
            try:
                if commands.parse(text) is not None:
                    await self.slash(text)
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
        finished: Finished | None = None
        try:
            async for event in session.run(task):
                self.renderer.show(event)
                finished = event if isinstance(event, Finished) else finished
        finally:
            self.renderer.pause()
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(signal.SIGINT)
        done = finished is not None and finished.stop_reason is StopReason.DONE
        if done and self.commands.offers_apply():
            async for output in self.commands.apply(offered=True):
                self.present(output)

    def _interrupt(self) -> None:
        assert self.session is not None
        self.renderer.note("interrupting the current step…", "warning")
        self.session.cancel()

    async def slash(self, line: str) -> None:
        parsed = commands.parse(line)
        if parsed is None:
            return
        if parsed.name == "quit":
            self._quit = True
        elif parsed.name == "theme":
            self.renderer.note(
                "Themes apply to the full-screen app; line mode uses your terminal's colours."
            )
        else:
            async for output in self.commands.run(line):
                self.present(output)
                if isinstance(output, commands.RunTask):  # a custom command's prompt
                    await self.run_task(output.task)

    def present(self, output: commands.Output) -> None:
        """Print one thing a slash command yielded."""
        if isinstance(output, commands.Say):
            self.renderer.note(output.text, output.level)
        elif isinstance(output, commands.ShowDiff):
            self.renderer.pause()
            diff = escape_controls(output.diff)  # the model's bytes, not the terminal's
            self.console.print(Syntax(diff, "diff", theme="ansi_dark", word_wrap=True))
        else:
            self.renderer.show(output)


def main(args: argparse.Namespace) -> int:
    """Handler of `kiln chat [--plain]`."""
    if not getattr(args, "plain", False):
        from tui.app import main as app_main

        return app_main(args)
    gc.enable()  # off for the full-screen app's start only (agent/cli.py)
    return asyncio.run(_until_hang_up(LineMode(launch_from_args(args))))


async def _until_hang_up(line_mode: LineMode) -> int:
    """Closing the terminal (SIGHUP) ends line mode as Ctrl+D does: the sandbox goes too."""
    main = asyncio.current_task()
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError, RuntimeError):
        loop.add_signal_handler(signal.SIGHUP, main.cancel if main else (lambda: None))
    try:
        return await line_mode.run()  # its `finally` closes the session
    except asyncio.CancelledError:
        return 129  # 128 + SIGHUP, as a shell reports it
