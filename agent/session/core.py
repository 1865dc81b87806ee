"""One working session: a sandbox over the repository, a model client, the loop, the store.

Front ends (TUI, line mode, headless, later ACP) hold a Session and read the events its
streams yield: `run(task)` for a request, `apply()` for writing the changes to the
working tree. A session outlives one request: `run()` may be called again for a
follow-up with the conversation kept; `cancel()` interrupts the current request only.

The Session is the one error boundary: whatever the person can cause (no engine, no
image, model server down, bad config, an apply conflict) leaves its methods as a
KilnError carrying one sentence, and inside a run as a Finished event with its reason.

What it holds and what front ends read of it (meters, mode, tests) are in `parts.py`; the
event streams' plumbing in `streams.py`; start-up in `startup.py` and `models.py`; the test
command in `baseline.py`; a resume in `resume.py`; apply, commit and undo in vcs/landing.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
from collections.abc import AsyncIterator

from agent.approval import UNVERIFIED, Approver, Mode
from agent.boundary import one_sentence
from agent.cost.pricing import pricing_for
from agent.custom.skills import with_skills
from agent.events import Event, Finished, Level, RunStatus, SessionStarted
from agent.hooks.points import prompt_submitted, run_stopped, session_started, with_hook_context
from agent.llm.base import ModelClient, ModelProfile
from agent.prompts.policy import FirstMessage, policy_for
from agent.run.core import Run
from agent.run.loop import drive
from agent.run.room import make_room
from agent.run.state import RunState
from agent.session import models, startup
from agent.session.jobs import SessionJobs
from agent.session.parts import SessionParts
from agent.settings.config import Limits, McpServer, Settings
from agent.settings.repo import stored_repo
from agent.store.db import Store
from agent.vcs.landing import commit_applied, land, provenance, undo_applied, undo_step


class Session(SessionParts, SessionJobs):
    """What a session does with its parts: start, run, compact, apply, commit, undo,
    switch the model, cancel, close; `load` reopens a stored one. Its jobs: `jobs.py`."""

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
            self.client = await models.main_client(self.settings)
        self.policy = policy_for(self.client.profile)
        try:
            await self._start_parts(self.client)
        except BaseException:
            self.tests.cancel()  # a start that failed leaves no baseline run behind
            raise
        self._hook_context = await session_started(self.hooks, self._emit)
        model = self.client.profile.model
        first = SessionStarted(self.session_id, str(self.repo), "", model, self.mode)
        self._streams.unsent.insert(0, dataclasses.replace(first, backend=self.backend))

    async def _start_parts(self, client: ModelClient) -> None:
        # The test runner check (not for a resumed session) goes to the sandbox as soon as
        # it runs, while the stable prefix and the server's window may still be on their way;
        # the tests' baseline run starts beside it.
        check = None if self._restore_diff else self.tests.runnable
        parts = await startup.start_parts(
            self.repo, self.settings, self.session_id, self.policy, client.profile,
            self._sandbox_starting if self.sandbox is None else self.sandbox, self._given_mcp,
            self.start_notes, self.on_progress, check,
        )  # fmt: skip
        self.sandbox, self.mcp, self._stable = parts.sandbox, parts.mcp, parts.stable
        self.hooks.sandbox = self.sandbox  # where a repository's hooks run
        self.watch_jobs(self.sandbox)
        self.prefix_parts, self.skills = parts.parts, parts.skills
        if self._restore_diff:
            from agent.session import resume  # here: only a resumed session loads it

            await resume.reapply(self.sandbox, self._restore_diff)
        if self.store is None:
            self.store = Store()
        # The loop's dependencies are made while the test runner check runs in the sandbox;
        # the check may still change the test command they hold.
        making = asyncio.ensure_future(startup.loop_deps(
            self.repo, self.settings, client, self.policy, self.sandbox, self.gate,
            self.conversation, self.tests, with_skills(self.skills, self.mcp), self.hooks,
            functools.partial(self.store.record_request, self.session_id), self.start_notes,
        ))  # fmt: skip
        try:
            window, changed = await startup.calibrated_while_checked(
                parts.window, client.profile, self.conversation, self._system_prompt, parts.asked
            )
            deps = await making
        except BaseException:
            making.cancel()
            raise
        deps.window = window
        deps.tool_context.test_command = self.tests.command
        self._deps = deps
        if changed:
            self._said_test_command(changed)

    def _said_test_command(self, why: str) -> None:
        """The tests run with another command from now on: say so, to the model too."""
        if self.conversation.history:
            self.conversation.add_feedback(f"[kiln] {why}")
        else:  # nothing sent yet: the system prompt itself names the command
            self.conversation.system = self._system_prompt()
        self.notice(why, Level.INFO)

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

        async for event in self._streams.stream(work):
            yield event
        self._save(deps.last_diff)

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
        self._streams.unsent = [  # the session's first request is its title
            dataclasses.replace(e, task=task) if isinstance(e, SessionStarted) else e
            for e in self._streams.unsent
        ]

        async def work() -> None:
            added = await prompt_submitted(self.hooks, task, self._emit)
            if added is None:
                return
            first = FirstMessage(task)
            self.conversation.instructions.append(task)  # compaction keeps it word for word
            if not self.conversation.history:
                said = await self.tests.use_named(task, deps, not self._restore_diff)
                if said:
                    self._said_test_command(said)
                sandbox = deps.tool_context.sandbox
                first = await self.policy.first_message(
                    task, self.tests.digest, sandbox, deps.tool_context.repo_index
                )
            context = "\n".join(c for c in (self._hook_context, added) if c)
            self._hook_context = ""  # the session's start is said once, with its first request
            text = with_hook_context(first.text, context)
            attempts, self.attempts_next = self.attempts_next, 1
            finished = await drive(deps, text, state, self._emit, first.briefing, attempts=attempts)
            self._weigh(finished)
            if not state.stop_hooks:  # ran at `finish` already, where they can object
                await run_stopped(self.hooks, self._emit)

        async for event in self._streams.stream(work):
            yield event
        self._save(deps.last_diff)

    def _weigh(self, finished: Finished) -> None:
        """What the workspace's changes can show after a run: a question's answer leaves
        them as they were; a change done with evidence clears the flag; anything else sets
        it (`approval.UNVERIFIED`), so the apply says so and asks."""
        if finished.status is RunStatus.ANSWERED:
            return
        if finished.status is RunStatus.DONE:
            self.unverified = ""
            return
        reason = finished.stop_reason.value.replace("_", " ")
        why = finished.evidence or f"the request ended {finished.status} ({reason})"
        self.unverified = UNVERIFIED + why

    def cancel(self) -> None:
        """Esc: interrupt the model request and any running command; the session goes on."""
        self._streams.cancel()

    async def diff(self) -> str:
        assert self.sandbox is not None, "start() first"
        with one_sentence():
            return await self.sandbox.diff()

    async def apply(self, *, then_close: bool = False) -> AsyncIterator[Event]:
        """Write the sandbox's diff to the repository, asking first unless mode is FULL_AUTO.

        Yields the question and its answer like any other events, then `Applied`.
        `then_close` (nothing runs in this session after it, as at the end of `kiln run`)
        skips making the workspace the sandbox's new baseline: a script in the sandbox
        the person would wait for, for a sandbox about to go.
        """

        async def work() -> None:
            commit = self.commit if self.settings.git.commit else None
            flags = (self.unverified,) if self.unverified else ()
            landed = await land(
                self.repo, self.session_id, await self.diff(), self.gate, self.hooks,
                self._emit, self.sandbox, self._deps, commit, rebaseline=not then_close,
                flags=flags,
            )  # fmt: skip
            self._landed_at_close = landed and then_close
            if landed:
                self.unverified = ""  # what it was about is the repository's now

        async for event in self._streams.stream(work):
            yield event

    async def commit(self) -> str:
        """Commit the change set this session applied last (/commit, `[git] commit`)."""
        model = self.profile.model if self.client else ""
        who = provenance(self.session_id, model, self.usage, self.cost_usd, self.tests_after)
        run = Run(self._deps, RunState(self.settings.limits), self._emit) if self._deps else None
        task = self.conversation.instructions[-1] if self.conversation.instructions else ""
        return await commit_applied(
            self.repo, self.settings, self.hooks, self._emit, run, task, who
        )

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
        profile, client = await models.chosen(self.settings, self.profile, choice)
        old, self.client = self.client, client
        if self._deps is not None:
            self._deps.use_client(self.client, pricing_for(profile, self.settings))
        if old is not None:
            await old.aclose()
        return profile

    async def set_effort(self, effort: str) -> ModelProfile:
        """How hard the model thinks from the next request on (`/effort`), the conversation
        kept: the same model and server, a client made with the new effort."""
        from agent.llm.factory import create_client

        profile = dataclasses.replace(self.profile, effort=effort)
        old, self.client = self.client, create_client(profile)
        if self._deps is not None:
            self._deps.use_client(self.client, pricing_for(profile, self.settings))
        if old is not None:
            await old.aclose()
        return profile

    async def stop_language_servers(self) -> None:
        """Nothing more is edited in this session (a `kiln run` whose run ended): its
        language servers stop now, a start still under way with them, instead of using the
        sandbox's CPUs while the end of the run is written out; their answers would reach
        no one."""
        if self._deps is not None and self._deps.tool_context.language_servers is not None:
            await self._deps.tool_context.language_servers.close()

    async def close(self) -> None:
        self.cancel()
        self.tests.cancel()
        if self._deps is not None and self.sandbox is not None:
            with contextlib.suppress(Exception):
                self._save("" if self._landed_at_close else await self.sandbox.diff())
        with one_sentence():
            await self.stop_language_servers()  # before their sandbox
            if self.sandbox is not None:
                await self.sandbox.close()
            if self.client is not None:
                await self.client.aclose()
            if self._deps is not None and self._deps.fast is not None:
                await self._deps.fast.client.aclose()
            if self.mcp is not None:
                await self.mcp.close()

    def _save(self, diff: str) -> None:
        """The conversation and the workspace's changes (`diff`), kept for a resume."""
        if self.store is not None:
            self.store.save_state(self.session_id, self.conversation.history, diff)

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
        from agent.session import resume

        store = store or Store()
        saved = resume.stored(store, session_id)
        row = saved.row
        mode = mode or Mode(row.mode or "ask")
        repo = stored_repo(row.repo, "start a new session in the repository where it is now.")
        session = cls(settings, repo, approver, mode, session_id=row.id,
                      client=client, store=store, mcp_servers=mcp_servers)  # fmt: skip
        session.conversation.history, session.events = saved.history, saved.events
        session._restore_diff = saved.diff
        return session
