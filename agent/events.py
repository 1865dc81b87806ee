"""The one event stream every front end consumes.

The loop yields these frozen dataclasses; the TUI, line mode, headless
`--output-format stream-json`, the session store and the tests all read the same
stream, so the front ends cannot drift apart. `to_dict()` is the JSON shape.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import field
from typing import Any, TypeAlias

from agent.approval import Action, Mode, Verdict

# The values events carry live apart, light to import (a front end's first frame needs them).
from agent.event_values import Budget as Budget
from agent.event_values import CandidateKind as CandidateKind
from agent.event_values import HookOutcome as HookOutcome
from agent.event_values import JobEnd as JobEnd
from agent.event_values import Level as Level
from agent.event_values import Phase as Phase
from agent.event_values import PlanStatus as PlanStatus
from agent.event_values import PlanStep as PlanStep
from agent.event_values import Reading as Reading
from agent.event_values import RunStatus as RunStatus
from agent.event_values import StopReason as StopReason
from agent.event_values import TaskShape as TaskShape
from agent.event_values import Usage as Usage
from agent.hooks.config import HookEvent as HookEvent  # defined beside the hooks' config
from sandbox.frozen import frozen


@frozen
class EventBase:
    """Every event's base; `kind` is the JSON discriminator. Readers take `Event`, the
    union of every event below, and `match` on it with `assert_never`, so an event one of
    them forgets fails mypy."""

    @property
    def kind(self) -> str:
        name = type(self).__name__
        return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, **_jsonable(dataclasses.asdict(self))}


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, enum.Enum):
        return value.value
    return value


@frozen
class SessionStarted(EventBase):
    """A session began: its id, repository, task, model, approval mode and sandbox."""

    session_id: str
    repo: str
    task: str
    model: str
    mode: Mode | Reading
    backend: str = ""  # the sandbox in use: "docker" or "bwrap"


@frozen
class PhaseChanged(EventBase):
    """The run moved to another phase (plan, edit, test, correct, done, failed)."""

    phase: Phase


@frozen
class TaskShaped(EventBase):
    """The shape kiln took the request for, first thing in a run: it picks the path."""

    shape: TaskShape


@frozen
class TurnStarted(EventBase):
    """A step of the run began, numbered from 1: the model is asked again."""

    step: int


@frozen
class TextDelta(EventBase):
    """A piece of the model's reply text, as it streams."""

    text: str


@frozen
class ReasoningDelta(EventBase):
    """A piece of the model's reasoning, as it streams."""

    text: str


@frozen
class AssistantMessage(EventBase):
    """The model's whole reply text for one turn, once streaming ended, and the reasoning
    it showed before it (a thinking model's; "" for most)."""

    text: str
    reasoning: str = ""


@frozen
class ToolCallStarted(EventBase):
    """A tool call began: its id, the tool's name and its arguments."""

    call_id: str
    name: str
    arguments: dict[str, Any]
    recovered_from_text: bool = False


@frozen
class ToolCallFinished(EventBase):
    """A tool call ended: whether it worked, its output and how long it took."""

    call_id: str
    name: str
    ok: bool
    output: str
    duration_s: float
    exit_code: int | None = None
    truncated: bool = False


@frozen
class ApprovalRequested(EventBase):
    """The person is asked whether an action may go ahead; ApprovalResolved answers."""

    request_id: str
    action: Action
    summary: str
    diff: str = ""
    command: str = ""
    path: str = ""  # the file edited, or the MCP tool called
    # Why this one asks even in full-auto: what it changes outside the sandbox's reach
    # (files that run on the host or steer kiln, most of the repository deleted).
    flags: tuple[str, ...] = ()


@frozen
class ApprovalResolved(EventBase):
    """The person's answer to the ApprovalRequested of the same `request_id`."""

    request_id: str
    decision: Verdict
    reason: str = ""


@frozen
class ActionDenied(EventBase):
    """A rule of `[permissions]` refused an action before anyone was asked; the model is
    told, and `kiln run`'s result lists it."""

    action: Action  # edit, command or mcp (as in ApprovalRequested)
    summary: str
    rule: str  # "deny `run: git push*`"
    source: str = ""  # the file the rule came from


@frozen
class HookRan(EventBase):
    """A hook ran: the person's on the host, a trusted repository's in the session's
    sandbox unless the person chose the host (agent/hooks/)."""

    hook_event: HookEvent
    command: str
    outcome: HookOutcome
    exit_code: int | None  # None: not started, or stopped at its timeout
    message: str = ""  # why it blocked, or the context it added
    duration_s: float = 0.0
    tool: str = ""  # the tool, for PreToolUse and PostToolUse
    source: str = ""  # the file it came from
    in_sandbox: bool = False  # a repository's hook, run in the session's sandbox


@frozen
class PlanUpdated(EventBase):
    """The model's plan as it stands now, every step."""

    steps: tuple[PlanStep, ...]


@frozen
class FilesChanged(EventBase):
    """The workspace's changed paths relative to the start, after a step."""

    paths: tuple[str, ...]


@frozen
class TestsRan(EventBase):
    """The tests ran: the command, the counts, the failing tests and the digest the model read."""

    command: str
    passed: int
    failed: int
    errors: int
    exit_code: int
    failing: tuple[str, ...] = ()
    digest: str = ""
    duration_s: float = 0.0


@frozen
class Compacted(EventBase):
    """The conversation was made smaller to fit the model's context window."""

    tier: int  # 1: old tool outputs became stubs; 2: older turns became a summary
    compacted: int  # messages stubbed or summarised
    kept: tuple[str, ...]  # what stayed word for word
    tokens_before: int
    tokens_after: int
    window: int
    summary: str = ""


@frozen
class CandidatesTried(EventBase):
    """kiln tried fixes and let the tests judge them: other edits after a failing one
    (agent/repair/candidates.py), or, before the model's first edit, rewrites and kiln's
    variants (agent/repair/rewrites.py) or whole modules for a stub (implement.py)."""

    tried: int  # candidates applied and tested
    passing: int  # of those, how many passed every test
    chosen: str  # the one kept instead of the model's own edit; "" when none was better
    # What made the one kept; when none was, the strategy that ran (REWRITE for rewrites
    # and variants together).
    how: CandidateKind

    @property
    def first_try(self) -> bool:
        """Before the model's first edit: there was nothing of its own to beat."""
        return self.how is not CandidateKind.SAMPLED_EDIT


@frozen
class WindowUsed(EventBase):
    """How full the context window is for the request about to be sent."""

    tokens: int
    window: int


@frozen
class UsageUpdated(EventBase):
    """Cumulative usage of the session; `estimated` while tokens still stream."""

    total: Usage
    last: Usage
    cost_usd: float | None  # None: a model's price is unknown (its tokens still count)
    estimated: bool = False
    ttft_s: float | None = None
    duration_s: float | None = None


@frozen
class Checkpointed(EventBase):
    """The workspace was saved as the checkpoint `ref`, which can be restored later."""

    ref: str
    label: str


@frozen
class Notice(EventBase):
    """Something worth showing that is not an error (recovered calls, retries...)."""

    message: str
    level: Level = Level.INFO


@frozen
class BudgetWarning(Notice):
    """A budget of the session is 80% used (dollars or tokens); the run goes on until it is
    all spent. A Notice, so every front end shows its message; the meter's bar turns."""

    budget: Budget = Budget.USD
    used: float = 0.0
    limit: float = 0.0


@frozen
class ModeChanged(EventBase):
    """The approval mode the person chose (/mode, Shift+Tab), for the meter."""

    mode: Mode


@frozen
class ModelChanged(EventBase):
    """The model the next request goes to (/model), for the meter."""

    model: str
    base_url: str = ""


@frozen
class Applied(EventBase):
    """The end of `Session.apply()`: the paths written to the working tree (none when the
    person said no, or there was nothing to write)."""

    paths: tuple[str, ...]
    approved: bool = True


@frozen
class SubagentStarted(EventBase):
    """The model started a child (the `agent` tool): a session of its own, in a sandbox of
    its own over the parent's workspace. `agent_id` names it in its SubagentFinished."""

    agent_id: str
    name: str  # the definition: explore, general, or one of the person's
    task: str
    read_only: bool = True


@frozen
class SubagentFinished(EventBase):
    """A child ended: how, its report, the files its own diff changes, and what it spent
    (counted in the parent's meter as well)."""

    agent_id: str
    name: str
    status: RunStatus
    summary: str = ""
    files: tuple[str, ...] = ()
    steps: int = 0
    usage: Usage = field(default_factory=Usage)
    cost_usd: float | None = 0.0
    duration_s: float = 0.0


@frozen
class JobStarted(EventBase):
    """The model started a command as a job (`run` with `background`): it runs beside the
    session in its sandbox until it exits or is stopped. `job_id` names it in JobStopped."""

    job_id: str
    command: str
    log: str = ""  # where the last part of its output is kept, inside the sandbox


@frozen
class JobStopped(EventBase):
    """A job ended: how, its exit code (None: unknown), how long it ran, the ports it
    listened on last, and its last lines."""

    job_id: str
    command: str
    ended: JobEnd
    exit_code: int | None = None
    uptime_s: float = 0.0
    ports: tuple[int, ...] = ()
    last_lines: str = ""


@frozen
class Finished(EventBase):
    """The run ended: how and why, with its steps, tool calls, usage, cost and duration."""

    status: RunStatus
    stop_reason: StopReason
    summary: str = ""
    steps: int = 0
    tool_calls: int = 0
    usage: Usage = field(default_factory=Usage)
    cost_usd: float | None = 0.0  # None: a model's price is unknown
    duration_s: float = 0.0
    # What shows the result is right, or why nothing does (agent/run/evidence.py): said
    # for `done`, `unverified` and `answered`; empty for the other statuses.
    evidence: str = ""


Event: TypeAlias = (
    SessionStarted
    | PhaseChanged
    | TaskShaped
    | TurnStarted
    | TextDelta
    | ReasoningDelta
    | AssistantMessage
    | ToolCallStarted
    | ToolCallFinished
    | ApprovalRequested
    | ApprovalResolved
    | ActionDenied
    | HookRan
    | PlanUpdated
    | FilesChanged
    | TestsRan
    | Compacted
    | CandidatesTried
    | WindowUsed
    | UsageUpdated
    | Checkpointed
    | Notice
    | ModeChanged
    | ModelChanged
    | Applied
    | SubagentStarted
    | SubagentFinished
    | JobStarted
    | JobStopped
    | Finished
    | BudgetWarning
)
