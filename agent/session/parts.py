"""What one session holds, and what front ends read of it: the settings, the repository,
the gate with its mode, the conversation, the test command, the hooks, the events so far;
once started, the model client, the sandbox and the loop's dependencies, with the meters
over them. The Session (`core.py`) is this plus what it does."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path

from agent import tools
from agent.approval import Approver, Mode
from agent.cost.meter import Meter
from agent.custom.skills import Skills
from agent.events import Checkpointed, Event, Finished, Level, Notice, Usage
from agent.hooks.load import open_hooks
from agent.llm.base import ModelClient, ModelProfile
from agent.prompts.conversation import Conversation
from agent.prompts.policy import PromptPolicy
from agent.run.core import LoopDeps
from agent.run.state import RunState
from agent.session.baseline import SharedBaselines, TestCommand
from agent.session.streams import EventStreams
from agent.settings.config import McpServer, Settings
from agent.store.db import Store
from agent.tools.base import ExternalTools
from agent.tools.gate import ApprovalGate
from agent.tools.testdigest import TestDigest
from sandbox.base import Sandbox


class SessionParts:
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
        shared_baselines: SharedBaselines | None = None,
    ) -> None:
        """`sandbox_starting`: the caller's sandbox, still starting (`kiln run` starts it
        first); the session waits for it while the rest of its start goes on, and the
        caller closes it when it fails to start."""
        self.settings = settings
        self.repo = Path(repo).resolve()
        self.approver = approver
        self.session_id = session_id or os.urandom(6).hex()
        self.client = client
        self.sandbox = sandbox
        self._sandbox_starting = sandbox_starting
        self.store = store
        self.events: list[Event] = []
        self.checkpoints: list[Checkpointed] = []
        self.last_run: RunState | None = None
        # The workspace's changes did not finish with evidence that they work: the flag
        # their apply carries (approval.UNVERIFIED and why), "" when they did.
        self.unverified = ""
        # /attempts N: the next request is tried this many times at once (run/attempts.py).
        self.attempts_next = 1
        self._streams = EventStreams(self._record)
        self._emit = self._streams.emit
        self.gate = ApprovalGate(approver, mode, settings.permissions)
        self.tests = TestCommand(
            self.repo, settings, baseline_tests, lambda said: self.notice(said), shared_baselines
        )
        self.policy = PromptPolicy()  # chosen for the model once start() knows it
        self._stable = ""  # project rules, skills and the repo map, made at the start
        self.prefix_parts: dict[str, str] = {}  # the same, by part (/context)
        self.skills = Skills()  # their metadata is in the prefix; read_skill reads the rest
        self.conversation = Conversation(self._system_prompt())
        self._restore_diff = ""  # a resumed session's workspace changes, re-applied at start
        self._deps: LoopDeps | None = None
        # Said while starting (the bubblewrap fallback): front ends show these after start().
        self.start_notes: list[str] = []
        # Each line a long sandbox start prints (the repository's setup), for the front end.
        self.on_progress: Callable[[str], None] | None = None
        self._start_lock = asyncio.Lock()
        # An apply just before close() left the sandbox's baseline where it was (see
        # Session.apply): what the sandbox still shows as changed is in the repository.
        self._landed_at_close = False
        self._given_mcp = mcp_servers or {}  # an ACP client's servers, beside the config's
        self.mcp: ExternalTools | None = None  # the MCP servers' tools, fixed at the start
        self.hooks = open_hooks(settings, self.repo, self.session_id, self.start_notes)
        self._hook_context = ""  # what SessionStart hooks added, for the first request

    def _record(self, event: Event) -> None:
        """Each event as it goes out to the stream being read: kept, and stored."""
        if isinstance(event, Checkpointed):
            self.checkpoints.append(event)
        self.events.append(event)
        if self.store is not None:
            self.store.record(self.session_id, event)

    def notice(self, message: str, level: Level = Level.WARNING) -> None:
        """Tell the person something through the event stream (sent with the next event)."""
        self._emit(Notice(message, level))

    def _system_prompt(self) -> str:
        return self.policy.system_prompt(self.repo.name, self.tests.command, self._stable)

    # --- what front ends read ------------------------------------------------------------

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
        return self._streams.running

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

    async def wait_baseline(self) -> None:
        """Edits wait until the baseline test run has seen the untouched workspace."""
        await self.tests.wait()

    def offers_agents(self) -> bool | None:
        """Whether the model gets the `agent` tool; None before the session started."""
        return self._deps.tool_context.agents is not None if self._deps else None

    def footprint(self) -> list[str]:
        """/context: what the stable prefix holds, and each part's share of the window."""
        from agent.prompts.footprint import footprint_lines  # here: asked by /context only

        deps = self._deps
        specs = tools.specs(deps.tool_context) if deps else tools.specs()
        window = deps.window if deps else None
        return footprint_lines(self.conversation, self.prefix_parts, specs, window)
