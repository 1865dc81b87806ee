"""A session's test command and the baseline run of it: the command detected in the
repository, else the first whose runner exists in the sandbox, or the one the person's
task names; the tests run once on the untouched workspace, edits waiting for that run.
The run starts beside the runner check, while the rest of the session starts."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path

from agent.run.core import LoopDeps
from agent.settings.config import Settings
from agent.tools.shell import first_runnable, tests_in
from agent.tools.testdigest import (
    TestDigest,
    candidate_test_commands,
    detect_test_command,
    named_test_command,
    runner_missing,
)
from sandbox.base import Sandbox

MISSING = "`{first}` cannot run in the sandbox (its program is not there), so "
# Baseline runs by command, shared by sessions that start from the same untouched tree (the
# attempts of `kiln run --attempts`): one runs each command, the others wait for its digest.
SharedBaselines = dict[str, "asyncio.Future[TestDigest | None]"]


class TestCommand:
    """The command kiln runs the tests with, and the digest of its run at the start."""

    __test__ = False  # not a pytest class, whatever its name

    def __init__(
        self,
        repo: Path,
        settings: Settings,
        baseline: bool,
        notice: Callable[[str], None],
        shared: SharedBaselines | None = None,
    ) -> None:
        self.repo = repo
        self.settings = settings
        self.command = detect_test_command(repo, settings.tests.command)
        self.before: TestDigest | None = None  # the baseline run's digest
        self._baseline = baseline  # run the tests at the start (tests turn it off)
        self._task: asyncio.Task[TestDigest | None] | None = None
        self._notice = notice
        # While the runner check runs, what the baseline run would say waits for its verdict:
        # a run of a command the check replaces says nothing.
        self._checking = False
        self._held: list[str] = []
        self._shared = shared

    async def runnable(self, sandbox: Sandbox) -> str:
        """Before anything is sent: the first detected command whose runner exists here.
        Its baseline run starts at once, beside the check, with the detected command; one
        the check replaces is started again. Returns the sentence saying the command
        changed ("" when it did not)."""
        self._checking = True
        try:
            self.start_baseline(sandbox)
            said = await self._first_runnable(sandbox)
        finally:
            self._checking = False
        held, self._held = self._held, []
        if said:
            await self.stop_baseline()
            self.start_baseline(sandbox)
        for sentence in [] if said else held:
            self._notice(sentence)
        return said

    async def _first_runnable(self, sandbox: Sandbox) -> str:
        if not self.command or self.settings.tests.command:
            return ""
        commands = candidate_test_commands(self.repo)  # the first is self.command
        chosen = await first_runnable(sandbox, commands)
        if chosen < 0:  # tests that cannot run would only fail: work as with none found
            self.command = ""
            return (
                MISSING.format(first=commands[0]) + "kiln runs no tests; set [tests] command "
                "in .kiln.toml, or name the command in the task."
            )
        if chosen > 0:
            self.command = commands[chosen]
            return MISSING.format(first=commands[0]) + f"kiln runs the tests with `{self.command}`."
        return ""

    async def use_named(self, task: str, deps: LoopDeps, rerun_baseline: bool) -> str:
        """The command the person's task names ("the tests fail (`python3 -m unittest`)")
        becomes the one to run, when the settings name none: the loop's from its next call,
        and the baseline's, run again unless `rerun_baseline` is False (a resumed workspace
        is not untouched). Returns the sentence saying so; "" when nothing changed."""
        named = named_test_command(task)
        if self.settings.tests.command or not named or named == self.command:
            return ""
        await self.stop_baseline()
        self.command = named
        deps.use_test_command(named)
        if rerun_baseline:
            self.start_baseline(deps.tool_context.sandbox)
        return f"The task names the test command `{named}`; kiln uses it."

    def start_baseline(self, sandbox: Sandbox) -> None:
        if self._baseline and self.command:
            self.before = None
            self._task = asyncio.ensure_future(self._run(sandbox))

    async def stop_baseline(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def cancel(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()

    async def _run(self, sandbox: Sandbox) -> TestDigest | None:
        if self._shared is None:
            return await self._run_here(sandbox)
        command, known = self.command, self._shared.get(self.command)
        if known is not None:
            await asyncio.wait([known])  # its owner's cancel is not this session's
            if not known.cancelled():
                self.before = known.result()
                return self.before
        ran = self._shared[command] = asyncio.get_running_loop().create_future()
        try:
            ran.set_result(await self._run_here(sandbox))
        finally:
            if not ran.done():  # cancelled: whoever waits runs it itself
                ran.cancel()
                del self._shared[command]
        return self.before

    async def _run_here(self, sandbox: Sandbox) -> TestDigest | None:
        try:
            report = await tests_in(sandbox, self.command, self.settings.tests.timeout_s)
            if runner_missing(report):
                self._say(
                    f"The test command `{self.command}` does not run in the sandbox; set "
                    "[tests] command in .kiln.toml, or name the command in the task."
                )
            self.before = report
        except Exception as exc:  # a baseline is a nicety: report it, never fail the session
            self._say(f"The tests could not be run at the start: {exc}")
        return self.before

    def _say(self, sentence: str) -> None:
        (self._held.append if self._checking else self._notice)(sentence)

    async def wait(self) -> None:
        """Edits wait until the baseline test run has seen the untouched workspace."""
        if self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    async def digest(self) -> TestDigest | None:
        await self.wait()
        return self.before
