"""What a run works with: the session's parts (LoopDeps) and one request in flight (Run)."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from agent import tools
from agent.cost.meter import Meter
from agent.cost.pricing import Pricing
from agent.events import Event, FilesChanged, Phase, PhaseChanged
from agent.llm.base import ModelClient
from agent.llm.request import OnRequest
from agent.prompts.conversation import Conversation
from agent.prompts.policy import PromptPolicy
from agent.prompts.window import Window
from agent.run.state import RunState
from agent.settings.config import Settings
from agent.tools.testdigest import TestDigest
from sandbox.base import Sandbox
from sandbox.frozen import frozen

Emit = Callable[[Event], None]


@frozen
class FastModel:
    """`[models.fast]`: the cheaper model for kiln's own small jobs (summaries)."""

    client: ModelClient
    pricing: Pricing


@dataclass(eq=False, repr=False)  # state, compared and shown by identity
class LoopDeps:
    """What every run needs; the Session owns all of it and keeps it across runs."""

    client: ModelClient
    tool_context: tools.ToolContext
    conversation: Conversation
    meter: Meter
    policy: PromptPolicy
    before_change: Callable[[], Awaitable[None]]  # e.g. wait for the baseline test run
    window: Window = dataclasses.field(default_factory=Window)
    fast: FastModel | None = None
    phase: Phase = Phase.PLAN  # written by `Run.enter` only
    on_request: OnRequest | None = None  # the store: what the model saw at each request
    # The baseline test run's digest once there is one (the session's); with the most tests
    # one full run has run since, what "no tests ran" is judged against.
    tests_before: Callable[[], TestDigest | None] = lambda: None
    most_tests_ran: int = 0
    # The workspace's diff as kiln saw it last: whether a step changed anything is judged
    # against it, and the store keeps it for a resume. Written by `record_diff` only.
    _last_diff: str = dataclasses.field(default="", init=False, repr=False)

    @property
    def last_diff(self) -> str:
        return self._last_diff

    def record_diff(self, diff: str) -> bool:
        """The workspace's diff now; True when it differs from the one recorded last."""
        changed, self._last_diff = diff != self._last_diff, diff
        return changed

    # What the session changes between runs, each through one method here.

    def use_client(self, client: ModelClient, pricing: Pricing) -> None:
        """/model: the next request goes to `client`, priced at `pricing`."""
        self.client = client
        self.meter.pricing = pricing

    def use_test_command(self, command: str) -> None:
        """The tests run with `command` from the next call on (the task named it)."""
        self.tool_context.test_command = command

    def workspace_landed(self) -> None:
        """The workspace was applied and is the baseline now: no changes are pending."""
        self.record_diff("")

    def workspace_restored(self, diff: str) -> None:
        """/undo put the workspace back to a checkpoint whose changes are `diff`."""
        self.record_diff(diff)


@dataclass(eq=False, repr=False)  # state, compared and shown by identity
class Run:
    """One request in flight: the session's parts, this run's counters, where events go.

    Every step of the loop is a plain `async def` taking a Run: it emits events through
    `emit` as they happen and returns its result.
    """

    deps: LoopDeps
    state: RunState
    emit: Emit

    @property
    def tool_context(self) -> tools.ToolContext:
        """The session's, emitting into this run (read each time: the session may switch the
        test command while the run goes on)."""
        return dataclasses.replace(self.deps.tool_context, emit=self.emit)

    @property
    def candidates_context(self) -> tools.ToolContext:
        """`tool_context` for kiln's own candidate writes (the repair engine's), which the
        tests judge: no language server is asked about them. Asking cost each of a small
        model's many candidates a check, on the two cores its server decodes on (measured:
        9/11 of bench/eval/heldout solved without the checks, 7/11 with them)."""
        return dataclasses.replace(self.tool_context, language_servers=None)

    @property
    def settings(self) -> Settings:
        return self.tool_context.settings

    @property
    def sandbox(self) -> Sandbox:
        return self.tool_context.sandbox

    @property
    def conversation(self) -> Conversation:
        return self.deps.conversation

    def enter(self, phase: Phase, *, announce_again: bool = False) -> None:
        """The loop is in `phase` now; announced when it changed (or `announce_again`)."""
        if self.deps.phase is not phase or announce_again:
            self.deps.phase = phase
            self.emit(PhaseChanged(phase))

    async def kiln_changed_files(self) -> None:
        """Kiln changed the workspace itself (a kept candidate, a module implemented): its
        diff is the one recorded last, and FilesChanged says which files."""
        self.deps.record_diff(await self.sandbox.diff())
        self.emit(FilesChanged(tuple(await self.sandbox.changed_files())))
