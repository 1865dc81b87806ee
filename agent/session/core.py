"""One working session: a sandbox over the repository, a model client, the loop, the store.

Front ends (TUI, line mode, headless, later ACP) hold a Session and read the events its
streams yield: `run(task)` for a request, `apply()` for writing the changes to the
working tree. A session outlives one request: `run()` may be called again for a
follow-up with the conversation kept; `cancel()` interrupts the current request only.

The Session is the one error boundary: whatever the person can cause (no engine, no
image, model server down, bad config, an apply conflict) leaves its methods as a
KilnError carrying one sentence, and inside a run as a Finished event with its reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

from agent import tools
from agent.approval import Approver, Mode
from agent.boundary import one_sentence
from agent.cost.meter import Meter
from agent.cost.pricing import pricing_for
from agent.custom.skills import Skills, with_skills
from agent.errors import Busy, KilnError
from agent.events import (
    Checkpointed,
    Event,
    Finished,
    Level,
    Notice,
    SessionStarted,
    Usage,
)
from agent.hooks.load import open_hooks
from agent.hooks.points import (
    commit_allowed,
    prompt_submitted,
    run_stopped,
    session_started,
    with_hook_context,
)
from agent.llm.base import ModelClient, ModelProfile
from agent.prompts.conversation import Conversation
from agent.prompts.footprint import footprint_lines
from agent.prompts.policy import FirstMessage, PromptPolicy, policy_for
from agent.run.core import Emit, LoopDeps, Run
from agent.run.loop import drive
from agent.run.room import make_room
from agent.run.state import RunState
from agent.session import startup
from agent.session.baseline import TestCommand
from agent.settings.config import Limits, McpServer, Settings
from agent.store.db import Store
from agent.tools.base import ExternalTools
from agent.tools.gate import ApprovalGate
from agent.tools.testdigest import (
    TestDigest,
)
from agent.vcs.landing import land, undo_applied, undo_step
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
        mcp_servers: dict[str, McpServer] | None = None,
        sandbox_starting: asyncio.Future[Sandbox] | None = None,
    ) -> None:
        """`sandbox_starting`: the caller's sandbox, still starting (`kiln run` starts it
        first); the session waits for it while the rest of its start goes on, and the
        caller closes it when it fails to start."""
        self.settings = settings
        self.repo = Path(repo).resolve()
        self.approver = approver
        self.session_id = session_id or uuid.uuid4().hex[:12]
        self.client = client
        self.sandbox = sandbox
        self._sandbox_starting = sandbox_starting
        self.store = store
        self.events: list[Event] = []
        self.checkpoints: list[Checkpointed] = []
        self.last_run: RunState | None = None
        self.gate = ApprovalGate(approver, mode, settings.permissions)
        self.tests = TestCommand(
            self.repo, settings, baseline_tests, lambda said: self.notice(said)
        )
        self.policy = PromptPolicy()  # chosen for the model once start() knows it
        self.conversation = Conversation(
            self.policy.system_prompt(self.repo.name, self.tests.command)
        )
        self._restore_diff = ""  # a resumed session's workspace changes, re-applied at start
        self._deps: LoopDeps | None = None
        self._sink: Emit | None = None  # the stream being read now, if any
        self._unsent: list[Event] = []  # emitted while no stream was read: sent with the next
        self._task: asyncio.Task[object] | None = None  # the work of the stream being read
        # Said while starting (the bubblewrap fallback): front ends show these after start().
        self.start_notes: list[str] = []
        self._stable = ""  # project rules, skills and the repo map, made at the start
        self.prefix_parts: dict[str, str] = {}  # the same, by part (/context)
        self.skills = Skills()  # their metadata is in the prefix; read_skill reads the rest
        # Each line a long sandbox start prints (the repository's setup), for the front end.
        self.on_progress: Callable[[str], None] | None = None
        self._start_lock = asyncio.Lock()
        self._given_mcp = mcp_servers or {}  # an ACP client's servers, beside the config's
        self.mcp: ExternalTools | None = None  # the MCP servers' tools, fixed at the start
        self.hooks = open_hooks(settings, self.repo, self.session_id, self.start_notes)
        self._hook_context = ""  # what SessionStart hooks added, for the first request

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
    def backend(self) -> str:
        return self.sandbox.backend if self.sandbox is not None else ""

    @property
    def usage(self) -> Usage:
        return self._deps.meter.total if self._deps else Usage()

    @property
    def meter(self) -> Meter | None:
        """The session's usage meter once started: kiln's own requests (a review) count too."""
        return self._deps.meter if self._deps else None

    @property
    def cost_usd(self) -> float | None:
        """None while a model's price is unknown."""
        return self._deps.meter.cost_usd if self._deps else 0.0

    @property
    def steps(self) -> int:
        """Model turns of every request so far, the one in flight included."""
        done = sum(e.steps for e in self.events if isinstance(e, Finished))
        return done + (self.last_run.steps if self.running and self.last_run else 0)

    @property
    def elapsed_s(self) -> float:
        """Time spent working on requests (not waiting for the person to type)."""
        done = sum(e.duration_s for e in self.events if isinstance(e, Finished))
        return done + (self.last_run.elapsed if self.running and self.last_run else 0.0)

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    @property
    def test_command(self) -> str:
        return self.tests.command

    @property
    def tests_before(self) -> TestDigest | None:
        """The baseline run's digest, once it ran."""
        return self.tests.before

    @property
    def tests_after(self) -> TestDigest | None:
        return self.last_run.last_tests if self.last_run else None

    # --- lifecycle ---------------------------------------------------------------------

    async def start(self) -> None:
        """Start the model client and the sandbox, record the baseline; idempotent.

        Raises KilnError (one sentence) for anything the person can fix.
        """
        async with self._start_lock:  # a request typed while starting waits for the start
            if self._deps is not None:
                return
            with one_sentence():
                await self._start()

    async def _start(self) -> None:
        self.start_notes.extend(startup.ignored_keys(self.settings))
        if self.client is None:
            self.client = await startup.open_client(self.settings)
        self.policy = policy_for(self.client.profile)
        parts = await startup.start_parts(
            self.repo, self.settings, self.session_id, self.policy, self.client.profile,
            self._sandbox_starting if self.sandbox is None else self.sandbox, self._given_mcp,
            self.start_notes, self.on_progress,
        )  # fmt: skip
        self.sandbox, self.mcp, self._stable = parts.sandbox, parts.mcp, parts.stable
        self.prefix_parts, self.skills = parts.parts, parts.skills
        if self._restore_diff:
            await startup.reapply(self.sandbox, self._restore_diff)
        changed = "" if self._restore_diff else await self.tests.runnable(self.sandbox)
        if not self.conversation.history:
            self.conversation.system = self.policy.system_prompt(
                self.repo.name, self.tests.command, self._stable
            )
        if self.store is None:
            self.store = Store()
        self._deps = await startup.loop_deps(
            self.repo, self.settings, self.client, self.policy, self.sandbox, self.gate,
            self.conversation, self.tests, with_skills(self.skills, self.mcp), self.hooks,
            functools.partial(self.store.record_request, self.session_id), parts.window,
            self.start_notes,
        )  # fmt: skip
        if changed:
            self._said_test_command(changed)
        if not self._restore_diff:
            self.tests.start_baseline(self._deps.tool_context)
        self._hook_context = await session_started(self.hooks, self._emit)
        model = self.client.profile.model
        first = SessionStarted(self.session_id, str(self.repo), "", model, self.mode)
        self._unsent.insert(0, dataclasses.replace(first, backend=self.backend))

    def _said_test_command(self, why: str) -> None:
        """The tests run with another command from now on: say so, to the model too."""
        if self.conversation.history:
            self.conversation.add_feedback(f"[kiln] {why}")
        else:  # nothing sent yet: the system prompt itself names the command
            self.conversation.system = self.policy.system_prompt(
                self.repo.name, self.tests.command, self._stable
            )
        self.notice(why, Level.INFO)

    async def _test_command_from(self, task: str) -> None:
        """The person's task names a test command: unless the settings name one, that is
        the one to run, the baseline included."""
        named = self.tests.named_in(task)
        if not named:
            return
        assert self._deps is not None
        await self.tests.stop_baseline()
        self.tests.command = named
        self._deps.use_test_command(named)
        self._said_test_command(f"The task names the test command `{named}`; kiln uses it.")
        if not self._restore_diff:
            self.tests.start_baseline(self._deps.tool_context)

    async def wait_baseline(self) -> None:
        """Edits wait until the baseline test run has seen the untouched workspace."""
        await self.tests.wait()

    # --- the event streams ---------------------------------------------------------------

    def _emit(self, event: Event) -> None:
        """The one sink: every event is recorded and sent to the stream being read.

        With no stream being read (a notice from the baseline run between requests) the
        event waits for the next stream, and is recorded then.
        """
        if self._sink is None:
            self._unsent.append(event)
            return
        if isinstance(event, Checkpointed):
            self.checkpoints.append(event)
        self.events.append(event)
        if self.store is not None:
            self.store.record(self.session_id, event)
        self._sink(event)

    def notice(self, message: str, level: Level = Level.WARNING) -> None:
        """Tell the person something through the event stream (sent with the next event)."""
        self._emit(Notice(message, level))

    async def _stream(self, work: Callable[[], Awaitable[object]]) -> AsyncIterator[Event]:
        """Run `work` as one task; yield every event emitted meanwhile, in order."""
        if self.running:
            raise Busy()
        queue: asyncio.Queue[Event] = asyncio.Queue()
        unsent, self._unsent = self._unsent, []
        self._sink = queue.put_nowait
        for event in unsent:
            self._emit(event)
        task = self._task = asyncio.ensure_future(work())
        try:
            while True:
                while not queue.empty():  # a burst of deltas goes out without waiting
                    yield queue.get_nowait()
                if task.done():
                    break
                getter = asyncio.ensure_future(queue.get())
                await asyncio.wait({getter, task}, return_when=asyncio.FIRST_COMPLETED)
                if getter.done():
                    yield getter.result()
                else:
                    getter.cancel()  # the work ended; what it emitted last is in the queue
            task.result()  # a bug inside surfaces here, not silently
        finally:
            self._sink = None
            if not task.done():
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task

    def _limits(self) -> Limits:
        """The settings' limits; without a configured wall clock, the policy's own (a small
        model's run ends after its `default_timeout_s`)."""
        limits = self.settings.limits
        clock = self.policy.default_timeout_s
        if clock is not None and "limits.timeout_s" not in self.settings.sources:
            limits = dataclasses.replace(limits, timeout_s=clock)
        return limits

    async def compact(self) -> AsyncIterator[Event]:
        """/compact: summarise the conversation now, whatever its size."""
        await self.start()
        deps = self._deps
        assert deps is not None
        state = self.last_run or RunState(self.settings.limits)

        async def work() -> None:
            await make_room(Run(deps, state, self._emit), force=True)

        async for event in self._stream(work):
            yield event
        if self.store is not None:
            self.store.save_state(self.session_id, self.conversation.history, deps.last_diff)

    async def run(self, task: str, clock_from: float | None = None) -> AsyncIterator[Event]:
        """One request: plan -> edit -> test -> correct, ending with a Finished event. Its
        wall clock starts now, or at `clock_from` (time.monotonic()) when given."""
        await self.start()
        deps = self._deps
        assert deps is not None
        state = RunState(self._limits())
        if clock_from is not None:
            state.started = min(state.started, clock_from)
        self.last_run = state
        self._unsent = [  # the session's first request is its title
            dataclasses.replace(e, task=task) if isinstance(e, SessionStarted) else e
            for e in self._unsent
        ]

        async def work() -> None:
            added = await prompt_submitted(self.hooks, task, self._emit)
            if added is None:
                return
            first = FirstMessage(task)
            self.conversation.instructions.append(task)  # compaction keeps it word for word
            if not self.conversation.history:
                await self._test_command_from(task)
                sandbox = deps.tool_context.sandbox
                first = await self.policy.first_message(
                    task, self.tests.digest, sandbox, deps.tool_context.repo_index
                )
            context = "\n".join(c for c in (self._hook_context, added) if c)
            self._hook_context = ""  # the session's start is said once, with its first request
            text = with_hook_context(first.text, context)
            await drive(deps, text, state, self._emit, first.briefing)
            if not state.stop_hooks:  # ran at `finish` already, where they can object
                await run_stopped(self.hooks, self._emit)

        async for event in self._stream(work):
            yield event
        if self.store is not None:
            self.store.save_state(self.session_id, self.conversation.history, deps.last_diff)

    def cancel(self) -> None:
        """Esc: interrupt the model request and any running command; the session goes on."""
        if self._task is not None and not self._task.done():
            self._task.cancel()

    async def diff(self) -> str:
        assert self.sandbox is not None, "start() first"
        with one_sentence():
            return await self.sandbox.diff()

    async def apply(self) -> AsyncIterator[Event]:
        """Write the sandbox's diff to the repository, asking first unless mode is FULL_AUTO.

        Yields the question and its answer like any other events, then `Applied`.
        """

        async def work() -> None:
            commit = self.commit if self.settings.git.commit else None
            await land(
                self.repo, self.session_id, await self.diff(), self.gate, self.hooks,
                self._emit, self.sandbox, self._deps, commit,
            )  # fmt: skip

        async for event in self._stream(work):
            yield event

    async def commit(self) -> str:
        """Commit the change set this session applied last (/commit, `[git] commit`)."""
        from agent.vcs.landing import commit_applied, provenance

        who = provenance(
            self.session_id, self.profile.model if self.client else "", self.usage,
            self.cost_usd, self.tests_after,
        )  # fmt: skip
        run = Run(self._deps, RunState(self.settings.limits), self._emit) if self._deps else None
        task = self.conversation.instructions[-1] if self.conversation.instructions else ""
        await commit_allowed(self.hooks, self.repo, self._emit)
        with one_sentence():
            return await commit_applied(self.repo, self.settings, run, task, who)

    async def undo_applied(self) -> str | None:
        """Take the change set this session applied last out of the working tree (or off
        the branch); None when it applied nothing that is not undone yet."""
        return await undo_applied(self.repo, self.session_id)

    async def undo(self) -> str:
        """Restore the checkpoint before the latest one; returns the label now current."""
        assert self.sandbox is not None, "start() first"
        return await undo_step(self.sandbox, self.checkpoints, self._deps)

    async def switch_model(self, choice: str) -> ModelProfile:
        """Use another model from the next request on, keeping the conversation.

        `choice` names a profile (`[models.NAME]`) or, failing that, a model at the
        current server. The meter prices every later request at the new model's prices.
        """
        from agent.settings.resolve import open_client

        profile = await startup.profile_named(self.settings, self.profile, choice)
        old, self.client = self.client, await open_client(profile)
        if self._deps is not None:
            self._deps.use_client(self.client, pricing_for(profile, self.settings))
        if old is not None:
            await old.aclose()
        return profile

    def footprint(self) -> list[str]:
        """/context: what the stable prefix holds, and each part's share of the window."""
        deps = self._deps
        specs = tools.specs(deps.tool_context) if deps else tools.specs()
        window = deps.window if deps else None
        return footprint_lines(self.conversation, self.prefix_parts, specs, window)

    async def close(self) -> None:
        self.cancel()
        self.tests.cancel()
        if self.store is not None and self._deps is not None and self.sandbox is not None:
            with contextlib.suppress(Exception):
                self.store.save_state(
                    self.session_id, self.conversation.history, await self.sandbox.diff()
                )
        with one_sentence():
            if self.sandbox is not None:
                await self.sandbox.close()
            if self.client is not None:
                await self.client.aclose()
            if self._deps is not None and self._deps.fast is not None:
                await self._deps.fast.client.aclose()
            if self.mcp is not None:
                await self.mcp.close()

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
        mcp_servers: dict[str, McpServer] | None = None,
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
            mcp_servers=mcp_servers,
        )
        history, diff = store.state(row.id)
        session.conversation.history = history
        session._restore_diff = diff
        session.events = [event_from_dict(d) for d in store.events(row.id)]
        return session
