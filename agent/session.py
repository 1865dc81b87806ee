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
from agent.approval import Action, Approver, Mode
from agent.boundary import one_sentence, start_sandbox
from agent.context.index import RepoIndex
from agent.context.repomap import prompt_map
from agent.cost.meter import Meter
from agent.cost.pricing import pricing_for
from agent.errors import Busy, KilnError
from agent.events import Applied, Checkpointed, Event, Finished, Notice, SessionStarted, Usage
from agent.hooks.load import open_hooks
from agent.hooks.points import (
    applied,
    apply_blocked,
    commit_allowed,
    prompt_blocked,
    run_stopped,
    session_started,
)
from agent.llm.base import ModelClient, ModelProfile
from agent.llm.window import served_token_count, served_window
from agent.present import changed_paths, flag_config
from agent.prompts.conversation import Conversation
from agent.prompts.policy import FirstMessage, PromptPolicy, policy_for
from agent.prompts.rules import project_rules
from agent.prompts.window import ANTHROPIC_WINDOW, Window
from agent.run.core import Emit, FastModel, LoopDeps, Run
from agent.run.loop import drive
from agent.run.room import make_room
from agent.run.state import RunState
from agent.settings import trust
from agent.settings.config import Limits, McpServer, Settings
from agent.store.db import Store
from agent.tools.base import ExternalTools
from agent.tools.gate import ApprovalGate
from agent.tools.shell import first_runnable, run_test_command
from agent.tools.testdigest import (
    TestDigest,
    candidate_test_commands,
    detect_test_command,
    named_test_command,
    runner_missing,
)
from sandbox.base import Sandbox

SMALL_MODEL_TIMEOUT_S = 180.0


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
        self.gate = ApprovalGate(approver, mode, settings.permissions)
        self.test_command = detect_test_command(self.repo, settings.tests.command)
        self.policy = PromptPolicy()  # chosen for the model once start() knows it
        self.conversation = Conversation(
            self.policy.system_prompt(self.repo.name, self.test_command)
        )
        self._baseline_tests = baseline_tests
        self._baseline: asyncio.Task[TestDigest | None] | None = None
        self._restore_diff = ""  # a resumed session's workspace changes, re-applied at start
        self._deps: LoopDeps | None = None
        self._sink: Emit | None = None  # the stream being read now, if any
        self._unsent: list[Event] = []  # emitted while no stream was read: sent with the next
        self._task: asyncio.Task[object] | None = None  # the work of the stream being read
        # Said while starting (the bubblewrap fallback): front ends show these after start().
        self.start_notes: list[str] = []
        self._stable: str | None = None  # project rules and the repo map, made at the start
        # Each line a long sandbox start prints (the repository's setup), for the front end.
        self.on_progress: Callable[[str], None] | None = None
        self._start_lock = asyncio.Lock()
        self._given_mcp = mcp_servers or {}  # an ACP client's servers, beside the config's
        self.mcp: ExternalTools | None = None  # the MCP servers' tools, fixed at the start
        self.hooks = open_hooks(settings, self.repo, self.session_id, self.start_notes)

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
        for key in self.settings.ignored:
            self.start_notes.append(
                f"The repository's .kiln.toml sets {key}, which kiln ignores: "
                f"{trust.why_ignored(key)}."
            )
        if self.client is None:
            from agent.settings.resolve import open_client, resolve_profile

            self.client = await open_client(await resolve_profile(self.settings))
        self.policy = policy_for(self.client.profile)
        # The repo map is made while the sandbox starts (a big repository's first map
        # takes seconds); the system prompt waits for it, so it is final when first sent.
        stable = asyncio.ensure_future(self._stable_extra())
        mcp = asyncio.ensure_future(self._start_mcp())  # servers start while the sandbox does
        if self.sandbox is None:
            made: list[Sandbox] = []
            try:
                self.sandbox = await start_sandbox(
                    self.repo, self.settings, self.session_id, made, self.start_notes.append,
                    self.on_progress,
                )  # fmt: skip
            except BaseException:
                for box in made:  # nothing half-started stays behind; start() may be retried
                    with contextlib.suppress(Exception):
                        await box.close()
                with contextlib.suppress(BaseException):
                    await stable
                await self._close_mcp(mcp)
                raise
        assert self.sandbox is not None
        extra = await stable
        self.mcp = await mcp
        if not self.conversation.history:
            self.conversation.system = self.policy.system_prompt(
                self.repo.name, self.test_command, extra
            )
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
            repo_index=RepoIndex.for_repository(self.repo),
            external=self.mcp,
            hooks=self.hooks or None,
        )
        self._deps = LoopDeps(
            client=self.client,
            tool_context=context,
            conversation=self.conversation,
            meter=Meter(pricing_for(self.client.profile, self.settings)),
            policy=self.policy,
            before_change=self.wait_baseline,
            tests_before=lambda: self.tests_before,
            on_request=functools.partial(self.store.record_request, self.session_id),
            window=await self._window(),
            fast=await self._fast_model(),
        )
        if self.test_command and not self.settings.tests.command and not self._restore_diff:
            await self._runnable_test_command()
        if self._baseline_tests and self.test_command and not self._restore_diff:
            self._baseline = asyncio.ensure_future(self._run_baseline_tests())
        await session_started(self.hooks, self._emit)
        self._unsent.insert(
            0,
            SessionStarted(
                self.session_id,
                str(self.repo),
                "",
                self.client.profile.model,
                self.mode.value,
                backend=self.backend,
            ),
        )

    async def _start_mcp(self) -> ExternalTools | None:
        """The MCP servers of the config, a trusted .mcp.json and the client; None: none."""
        from agent.protocols.mcp_config import choose_servers

        chosen = choose_servers(self.repo, self.settings, self._given_mcp)
        self.start_notes.extend(chosen.notes)
        if not chosen.servers:
            return None
        from agent.protocols.mcp_tools import McpTools

        tools = await McpTools.start(
            chosen.servers, self.repo, self.settings.mcp.max_tools, self.settings.model_key_vars
        )
        self.start_notes.extend(tools.notes)
        return tools

    async def _close_mcp(self, started: asyncio.Future[ExternalTools | None]) -> None:
        with contextlib.suppress(BaseException):
            tools = await started
            if tools is not None:
                await tools.close()

    async def _run_baseline_tests(self) -> TestDigest | None:
        assert self._deps is not None
        try:
            report = await run_test_command(self._deps.tool_context)
            if runner_missing(report):
                self.notice(
                    f"The test command `{self.test_command}` does not run in the sandbox; set "
                    "[tests] command in .kiln.toml, or name the command in the task."
                )
            self.tests_before = report
        except Exception as exc:  # a baseline is a nicety: report it, never fail the session
            self.notice(f"The tests could not be run at the start: {exc}")
        return self.tests_before

    async def _runnable_test_command(self) -> None:
        """Before anything is sent: the first detected command whose runner exists here."""
        assert self.sandbox is not None
        commands = candidate_test_commands(self.repo)  # the first is self.test_command
        chosen = await first_runnable(self.sandbox, commands)
        if chosen < 0:  # tests that cannot run would only fail: work as with none found
            self._use_test_command(
                "",
                f"`{commands[0]}` cannot run in the sandbox (its program is not there), so "
                "kiln runs no tests; set [tests] command in .kiln.toml, or name the command "
                "in the task.",
            )
        elif chosen > 0:
            self._use_test_command(
                commands[chosen],
                f"`{commands[0]}` cannot run in the sandbox (its program is not there), so "
                f"kiln runs the tests with `{commands[chosen]}`.",
            )

    async def _stable_extra(self) -> str:
        """What follows the system prompt in the stable prefix: the project's rules and the
        repo map, made once, so every request of the session starts with the same bytes."""
        if self._stable is None:
            tokens = self.settings.context.map_tokens if self.policy.name == "standard" else 0
            rules = project_rules(self.repo)
            from agent.vcs.flagged import unreviewed_rules

            for name in await asyncio.to_thread(unreviewed_rules, self.repo):
                self.start_notes.append(
                    f"{name} was written by a kiln apply and is not committed yet; it is read "
                    "into every request as project rules: read it (`git diff`) before you rely on it."
                )
            repo_map = ""
            try:
                repo_map = (
                    await asyncio.to_thread(prompt_map, self.repo, (), tokens) if tokens else ""
                )
            except KilnError as exc:  # the map helps; the session does not depend on it
                self.start_notes.append(f"No repo map this session: {exc.message}")
            shown = f"## Repository map (definitions by file, most used first)\n\n{repo_map}"
            self._stable = "\n\n".join(p for p in (rules, shown if repo_map else "") if p)
        return self._stable

    def _use_test_command(self, command: str, why: str) -> None:
        """Run the tests with `command` from now on, and say so (to the model too)."""
        self.test_command = command
        if self._deps is not None:
            self._deps.tool_context.test_command = command
        if self.conversation.history:
            self.conversation.add_feedback(f"[kiln] {why}")
        else:  # nothing sent yet: the system prompt itself names the command
            self.conversation.system = self.policy.system_prompt(
                self.repo.name, command, self._stable or ""
            )
        self.notice(why, "info")

    async def _test_command_from(self, task: str) -> None:
        """The person's task names a test command ("the tests fail (`python3 -m unittest`)"):
        unless the settings name one, that is the one to run, the baseline included."""
        named = named_test_command(task)
        if self.settings.tests.command or not named or named == self.test_command:
            return
        if self._baseline is not None and not self._baseline.done():
            self._baseline.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._baseline
        self._use_test_command(named, f"The task names the test command `{named}`; kiln uses it.")
        if self._baseline_tests and not self._restore_diff:
            self.tests_before = None
            self._baseline = asyncio.ensure_future(self._run_baseline_tests())

    async def wait_baseline(self) -> None:
        """Edits wait until the baseline test run has seen the untouched workspace."""
        if self._baseline is not None and not self._baseline.done():
            await asyncio.shield(self._baseline)

    async def _baseline_digest(self) -> TestDigest | None:
        await self.wait_baseline()
        return self.tests_before

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

    def notice(self, message: str, level: str = "warning") -> None:
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
        """The settings' limits; a small model's run without a configured wall clock ends
        after SMALL_MODEL_TIMEOUT_S (a failing run must not spin for many minutes)."""
        limits = self.settings.limits
        if self.policy.name != "standard" and "limits.timeout_s" not in self.settings.sources:
            limits = dataclasses.replace(limits, timeout_s=SMALL_MODEL_TIMEOUT_S)
        return limits

    async def _fast_model(self) -> FastModel | None:
        """`[models.fast]`, for kiln's own small jobs; unreachable, the main model does them."""
        if "fast" not in self.settings.models:
            return None
        from agent.settings.resolve import open_client, resolve_profile

        try:
            profile = await resolve_profile(self.settings, "fast")
            client = await open_client(profile)
        except KilnError as exc:
            self.start_notes.append(
                f"The fast model cannot be used ({exc.message}); the main model summarises."
            )
            return None
        return FastModel(client, pricing_for(profile, self.settings))

    async def _window(self) -> Window:
        """The model's context window: configured, else what its server declares, else
        the profile's default; calibrated with the server's tokenizer where it has one."""
        assert self.client is not None
        profile = self.client.profile
        tokens = profile.context_window
        configured = "models.main.context_window" in self.settings.sources or (
            tokens != ModelProfile().context_window  # a profile kiln made (the local model)
        )
        known = configured
        if profile.provider == "anthropic" and not configured:
            tokens, known = ANTHROPIC_WINDOW, True
        elif profile.base_url and not configured:
            served = await served_window(profile.base_url, profile.model)
            tokens, known = (served, True) if served else (tokens, False)
        window = Window(tokens, profile.max_output_tokens, self.settings.context.compact_at)
        window.known = known
        if profile.provider != "anthropic" and profile.base_url:
            sample = self.conversation.system
            counted = await served_token_count(profile.base_url, sample)
            if counted:
                window.calibrate(len(sample), counted)
        return window

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
            if await prompt_blocked(self.hooks, task, self._emit):
                return
            first = FirstMessage(task)
            self.conversation.instructions.append(task)  # compaction keeps it word for word
            if not self.conversation.history:
                await self._test_command_from(task)
                sandbox = deps.tool_context.sandbox
                first = await self.policy.first_message(
                    task, self._baseline_digest, sandbox, deps.tool_context.repo_index
                )
            await drive(deps, first.text, state, self._emit, first.briefing)
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
        result: list[str] = []

        async def work() -> None:
            diff = await self.diff()
            if not diff.strip():
                self._emit(Applied((), approved=False))
                return
            from agent.vcs.flagged import flags_for, trust_dropped

            flags = await asyncio.to_thread(flags_for, self.repo, diff)
            summary = flag_config(f"apply the changes to {self.repo}", changed_paths(diff))
            if flags:
                summary += "; look first: it " + "; it ".join(flags)
            refusal = await apply_blocked(self.hooks, diff, self._emit) or await self.gate.check(
                Action.APPLY, summary, self._emit, diff=diff, flags=flags
            )
            if not refusal:
                from agent.vcs.apply import apply_to_host
                from agent.vcs.landing import remember

                result.extend(await apply_to_host(self.repo, diff))
                await applied(self.hooks, result, self._emit)
                remember(self.repo, self.session_id, diff, result)
                for name in trust_dropped(self.repo, result) if flags else []:
                    self.notice(
                        f"The applied changes altered what your trust of {name} covered: kiln "
                        "ignores what it asks of your machine until you read it and run "
                        "`kiln trust` again."
                    )
                # What was applied is the repository's now: the next apply holds only what
                # came after it, or it would be refused as edited meanwhile.
                assert self.sandbox is not None  # diff() needed it
                with one_sentence():
                    await self.sandbox.rebaseline()
                if self._deps is not None:
                    self._deps.last_diff = ""
            self._emit(Applied(tuple(result), approved=not refusal))
            if result and self.settings.git.commit:
                try:
                    self._emit(Notice(await self.commit(), "info"))
                except KilnError as exc:  # applied all the same: the hook's refusal is shown
                    self._emit(Notice(exc.message, "error"))

        async for event in self._stream(work):
            yield event

    async def commit(self) -> str:
        """Commit the change set this session applied last (/commit, `[git] commit`)."""
        from agent.vcs.commit import Provenance
        from agent.vcs.landing import commit_applied, tests_line

        usage = self.usage
        who = Provenance(
            self.session_id,
            self.profile.model if self.client else "",
            usage.prompt_total + usage.output,
            self.cost_usd,
            tests_line(self.tests_after),
        )
        run = Run(self._deps, RunState(self.settings.limits), self._emit) if self._deps else None
        task = self.conversation.instructions[-1] if self.conversation.instructions else ""
        await commit_allowed(self.hooks, self.repo, self._emit)
        with one_sentence():
            return await commit_applied(self.repo, self.settings, run, task, who)

    async def undo_applied(self) -> str | None:
        """Take the change set this session applied last out of the working tree (or off
        the branch); None when it applied nothing that is not undone yet."""
        from agent.vcs import ledger
        from agent.vcs.undo import undo_last

        if ledger.last_open(self.repo, self.session_id) is None:
            return None
        return await asyncio.to_thread(undo_last, self.repo, self.session_id)

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
        with one_sentence():
            await self.sandbox.restore(ref)
            if self._deps is not None:
                self._deps.last_diff = await self.sandbox.diff()
        return label

    async def switch_model(self, choice: str) -> ModelProfile:
        """Use another model from the next request on, keeping the conversation.

        `choice` names a profile (`[models.NAME]`) or, failing that, a model at the
        current server. The meter prices every later request at the new model's prices.
        """
        from agent.settings.resolve import open_client, resolve_profile

        if choice in self.settings.models:
            profile = await resolve_profile(self.settings, choice)
        else:
            profile = dataclasses.replace(self.profile, model=choice)
        old, self.client = self.client, await open_client(profile)
        if self._deps is not None:
            self._deps.client = self.client
            self._deps.meter.pricing = pricing_for(profile, self.settings)
        if old is not None:
            await old.aclose()
        return profile

    async def close(self) -> None:
        self.cancel()
        if self._baseline is not None and not self._baseline.done():
            self._baseline.cancel()
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
