"""One working session: a sandbox over the repository, a model client, the loop, the store.

Front ends (TUI, line mode, headless) hold a Session and read the events `run()` yields.
A session outlives one request: `run()` may be called again for a follow-up with the
conversation kept; `cancel()` interrupts the current request only.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

from agent import tools
from agent.approval import Action, Approver, Mode
from agent.cost.meter import Meter
from agent.errors import KilnError
from agent.events import Checkpointed, Event, Notice, SessionStarted, Usage
from agent.llm.base import ModelClient, ModelProfile
from agent.prompts.briefing import briefing
from agent.prompts.conversation import Conversation, system_prompt
from agent.run.loop import LoopDeps, run_task
from agent.run.state import RunState
from agent.settings.config import Settings
from agent.store.db import Store
from agent.tools.gate import ApprovalGate
from agent.tools.shell import run_test_command
from agent.tools.testdigest import TestDigest, detect_test_command
from sandbox.base import Sandbox


class Session:
    def __init__(
        self,
        settings: Settings,
        repo: Path,
        approver: Approver,
        mode: Mode,
        *,
        session_id: str | None = None,
        client: ModelClient | None = None,
        sandbox: Sandbox | None = None,
        store: Store | None = None,
        baseline_tests: bool = True,
    ) -> None:
        self.settings = settings
        self.repo = Path(repo).resolve()
        self.approver = approver
        self.session_id = session_id or uuid.uuid4().hex[:12]
        self.client = client
        self.sandbox = sandbox
        self.store = store
        self.events: list[Event] = []
        self.checkpoints: list[Checkpointed] = []
        self.tests_before: TestDigest | None = None
        self.last_run: RunState | None = None
        self.gate = ApprovalGate(approver, mode)
        self.test_command = detect_test_command(self.repo, settings.tests.command)
        self.conversation = Conversation(system_prompt(self.repo.name, self.test_command))
        self._baseline_tests = baseline_tests
        self._baseline: asyncio.Task[TestDigest | None] | None = None
        self._restore_diff = ""  # a resumed session's workspace changes, re-applied at start
        self._cancel = asyncio.Event()
        self._deps: LoopDeps | None = None
        self._unsent: list[Event] = []

    # --- mode, meters ------------------------------------------------------------------

    @property
    def mode(self) -> Mode:
        return self.gate.mode

    @mode.setter
    def mode(self, mode: Mode) -> None:
        self.gate.mode = mode

    @property
    def profile(self) -> ModelProfile:
        assert self.client is not None, "start() first"
        return self.client.profile

    @property
    def usage(self) -> Usage:
        return self._deps.meter.total if self._deps else Usage()

    @property
    def cost_usd(self) -> float:
        return self._deps.meter.cost_usd if self._deps else 0.0

    @property
    def steps(self) -> int:
        return sum(getattr(e, "steps", 0) for e in self.events if e.kind == "finished")

    @property
    def tests_after(self) -> TestDigest | None:
        return self.last_run.last_tests if self.last_run else None

    # --- lifecycle ---------------------------------------------------------------------

    async def start(self) -> None:
        """Start the sandbox, record the baseline, queue SessionStarted for the first run."""
        if self._deps is not None:
            return
        if self.client is None:
            self.client = await _create_client(self.settings)
        if self.client.profile.small_model and not self.conversation.history:
            self.conversation.system = system_prompt(
                self.repo.name, self.test_command, small_model=True
            )
        if self.sandbox is None:
            self.sandbox = _create_sandbox(self.repo, self.settings, self.session_id)
        await self.sandbox.start()
        if self._restore_diff:
            await _reapply(self.sandbox, self._restore_diff)
        if self.store is None:
            self.store = Store()
        context = tools.ToolContext(
            sandbox=self.sandbox,
            settings=self.settings,
            gate=self.gate,
            test_command=self.test_command,
            max_command_timeout_s=max(self.settings.tests.timeout_s, 60.0),
        )
        self._deps = LoopDeps(
            client=self.client,
            tool_context=context,
            conversation=self.conversation,
            meter=Meter(self.client.profile.prices),
            cancel=self._cancel,
            before_change=self.wait_baseline,
        )
        if self._baseline_tests and self.test_command and not self._restore_diff:
            self._baseline = asyncio.ensure_future(self._run_baseline_tests())
        self._unsent.append(
            SessionStarted(
                self.session_id, str(self.repo), "", self.client.profile.model, self.mode.value
            )
        )

    async def _run_baseline_tests(self) -> TestDigest | None:
        assert self._deps is not None
        try:
            self.tests_before = await run_test_command(self._deps.tool_context)
        except Exception as exc:  # a baseline is a nicety: report it, never fail the session
            self._unsent.append(Notice(f"The tests could not be run at the start: {exc}"))
        return self.tests_before

    async def wait_baseline(self) -> None:
        """Edits wait until the baseline test run has seen the untouched workspace."""
        if self._baseline is not None and not self._baseline.done():
            await asyncio.shield(self._baseline)

    async def run(self, task: str) -> AsyncIterator[Event]:
        """One request: plan -> edit -> test -> correct until Finished."""
        await self.start()
        assert self._deps is not None
        state = RunState(self.settings.limits)
        self.last_run = state
        for event in self._take_unsent(task):
            yield self._record(event)
        prompt = task
        if self.profile.small_model and not self.conversation.history:
            await self.wait_baseline()  # a small model gets the failing tests up front
            prompt = await briefing(task, self.tests_before, self._deps.tool_context.sandbox)
        async for event in run_task(self._deps, prompt, state):
            for queued in self._take_unsent(task):
                yield self._record(queued)
            if isinstance(event, Checkpointed):
                self.checkpoints.append(event)
            yield self._record(event)
        if self.store is not None:
            self.store.save_state(self.session_id, self.conversation.history, self._deps.last_diff)

    def _take_unsent(self, task: str) -> list[Event]:
        unsent, self._unsent = self._unsent, []
        return [
            dataclasses.replace(e, task=task) if isinstance(e, SessionStarted) else e
            for e in unsent
        ]

    def _record(self, event: Event) -> Event:
        self.events.append(event)
        if self.store is not None:
            self.store.record(self.session_id, event)
        return event

    def cancel(self) -> None:
        """Esc: interrupt the model request and any running command."""
        self._cancel.set()

    async def diff(self) -> str:
        assert self.sandbox is not None, "start() first"
        return await self.sandbox.diff()

    async def apply(self) -> list[str]:
        """Write the sandbox's diff to the repository, asking first unless mode is FULL_AUTO."""
        diff = await self.diff()
        if not diff.strip():
            return []
        refusal = await self.gate.check(
            Action.APPLY, f"apply the changes to {self.repo}", self._unsent.append, diff=diff
        )
        for event in self._take_unsent(""):
            self._record(event)
        if refusal:
            return []
        from agent.vcs.apply import apply_to_host

        return await apply_to_host(self.repo, diff, self.sandbox)

    async def undo(self) -> str:
        """Restore the checkpoint before the latest one; returns the label now current."""
        assert self.sandbox is not None, "start() first"
        if not self.checkpoints:
            raise KilnError("There is nothing to undo yet.")
        self.checkpoints.pop()
        if self.checkpoints:
            target = self.checkpoints[-1]
            ref, label = target.ref, target.label
        else:
            ref, label = str(getattr(self.sandbox, "baseline", "")), "start"
        await self.sandbox.restore(ref)
        if self._deps is not None:
            self._deps.last_diff = await self.sandbox.diff()
        return label

    async def switch_model(self, choice: str) -> ModelProfile:
        """Use another model from the next request on, keeping the conversation.

        `choice` names a profile (`[models.NAME]`) or, failing that, a model at the
        current server. The meter prices every later request at the new model's prices.
        """
        from agent.llm.factory import create_client
        from agent.llm.resolve import check_reachable, resolve_profile

        if choice in self.settings.models:
            profile = await resolve_profile(self.settings, choice)
        else:
            profile = dataclasses.replace(self.profile, model=choice)
        await check_reachable(profile)
        old, self.client = self.client, create_client(profile)
        if self._deps is not None:
            self._deps.client = self.client
            self._deps.meter.prices = profile.prices
        if old is not None:
            await old.aclose()
        return profile

    async def close(self) -> None:
        if self._baseline is not None and not self._baseline.done():
            self._baseline.cancel()
        if self.store is not None and self._deps is not None and self.sandbox is not None:
            with contextlib.suppress(Exception):
                self.store.save_state(
                    self.session_id, self.conversation.history, await self.sandbox.diff()
                )
        if self.sandbox is not None:
            await self.sandbox.close()
        if self.client is not None:
            await self.client.aclose()

    @classmethod
    def load(
        cls,
        session_id: str,
        settings: Settings,
        approver: Approver,
        *,
        mode: Mode | None = None,
        client: ModelClient | None = None,
        store: Store | None = None,
    ) -> Session:
        """Reopen a stored session (`--resume ID`, or "last"): conversation and workspace."""
        from agent.store.codec import event_from_dict

        store = store or Store()
        row = store.find(session_id)
        if row is None:
            raise KilnError(f"There is no stored session {session_id!r}; see `kiln sessions list`.")
        session = cls(
            settings,
            Path(row.repo),
            approver,
            mode or Mode(row.mode or "ask"),
            session_id=row.id,
            client=client,
            store=store,
        )
        history, diff = store.state(row.id)
        session.conversation.history = history
        session._restore_diff = diff
        session.events = [event_from_dict(d) for d in store.events(row.id)]
        return session


async def _create_client(settings: Settings) -> ModelClient:
    from agent.llm.factory import create_client
    from agent.llm.resolve import check_reachable, resolve_profile

    profile = await resolve_profile(settings)
    await check_reachable(profile)
    return create_client(profile)


def _create_sandbox(repo: Path, settings: Settings, session_id: str) -> Sandbox:
    from sandbox.factory import create_sandbox

    return create_sandbox(repo, settings.sandbox, session_id=session_id)


async def _reapply(sandbox: Sandbox, diff: str) -> None:
    """Bring a resumed session's workspace back to where it was."""
    await sandbox.write_file(".git/kiln-resume.patch", diff.encode())
    result = await sandbox.exec(
        "git apply --binary --whitespace=nowarn .git/kiln-resume.patch && rm .git/kiln-resume.patch"
    )
    if not result.ok:
        raise KilnError(
            "The stored changes of this session no longer apply to the repository; "
            "start a new session instead."
        )
