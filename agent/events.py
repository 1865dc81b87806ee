"""The one event stream every front end consumes.

The loop yields these frozen dataclasses; the TUI, line mode, headless
`--output-format stream-json`, the session store and the tests all read the same
stream, so the front ends cannot drift apart. `to_dict()` is the JSON shape.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from agent.approval import Action, Mode, Verdict
from agent.hooks.config import HookEvent as HookEvent  # defined beside the hooks' config


class Phase(enum.StrEnum):
    PLAN = "plan"
    EDIT = "edit"
    TEST = "test"
    CORRECT = "correct"
    DONE = "done"
    FAILED = "failed"


class StopReason(enum.StrEnum):
    """Why a run ended. Every stop has exactly one of these."""

    DONE = "done"
    TESTS_STILL_FAILING = "tests_still_failing"
    MAX_STEPS = "max_steps"
    MAX_TOOL_CALLS = "max_tool_calls"
    TOKEN_BUDGET = "token_budget"
    DOLLAR_BUDGET = "dollar_budget"
    WALL_CLOCK = "wall_clock"
    REPEATED_CALL = "repeated_call"
    FORMAT_ERRORS = "format_errors"
    APPROVAL_NEEDED = "approval_needed"
    MODEL_ERROR = "model_error"
    SANDBOX_ERROR = "sandbox_error"
    CANCELLED = "cancelled"
    NO_ACTION = "no_action"  # the model answered without a tool call and did not finish
    NO_PROGRESS = "no_progress"  # edits in a row that left the tests as they were
    NOTHING_CHANGED = "nothing_changed"  # finished again and again on a change it never made
    HOOK_BLOCKED = "hook_blocked"  # a UserPromptSubmit hook blocked the request


class TaskShape(enum.StrEnum):
    """What a request asks of kiln, named at the start of a run (agent/prompts/shape.py);
    each shape takes the path that fits it. Add a shape here and a rule there."""

    CHANGE = "change"  # a fix or a feature: the run must change something to be done
    QUESTION = "question"  # about the code: the answer is the result, nothing to change


class CandidateKind(enum.StrEnum):
    """Which strategy of the repair engine (agent/repair/) made a candidate."""

    REWRITE = "rewrite"  # the model's rewrite of one suspect function
    VARIANT = "variant"  # kiln's own one-token change of a suspect or of a rewrite
    PART_OF_REWRITE = "part_of_rewrite"  # some of the changes of a rewrite that failed whole
    MODULE = "module"  # a stub implemented whole by the model
    SAMPLED_EDIT = "sampled_edit"  # an edit sampled again after the model's own failed


class RunStatus(enum.StrEnum):
    """How a run ended, in one word; `Finished.stop_reason` says why."""

    DONE = "done"
    FAILED = "failed"
    LIMIT = "limit"
    CANCELLED = "cancelled"
    ERROR = "error"


class Level(enum.StrEnum):
    """How a Notice is shown."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


class Budget(enum.StrEnum):
    """Which budget a BudgetWarning is about."""

    USD = "usd"
    TOKENS = "tokens"


class Reading(enum.StrEnum):
    """A session that only reads, in `SessionStarted.mode`: `kiln review`'s."""

    REVIEW = "review"


class HookOutcome(enum.StrEnum):
    """What became of one hook's run, in `HookRan.outcome`."""

    ALLOWED = "allowed"
    BLOCKED = "blocked"  # exit 2, or its JSON said so
    FAILED = "failed"  # any other exit, a crash or a timeout: it blocks too


class PlanStatus(enum.StrEnum):
    PENDING = "pending"
    IN_PROGRESS = "in_progress"
    DONE = "done"


@dataclass(frozen=True)
class Usage:
    """Token counts. `uncached_input` excludes cache reads and cache writes."""

    uncached_input: int = 0
    cached_input: int = 0
    cache_write: int = 0
    output: int = 0

    @property
    def prompt_total(self) -> int:
        return self.uncached_input + self.cached_input + self.cache_write

    @property
    def cache_hit_ratio(self) -> float:
        total = self.prompt_total
        return self.cached_input / total if total else 0.0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.uncached_input + other.uncached_input,
            self.cached_input + other.cached_input,
            self.cache_write + other.cache_write,
            self.output + other.output,
        )


@dataclass(frozen=True)
class PlanStep:
    title: str
    status: PlanStatus = PlanStatus.PENDING


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class SessionStarted(EventBase):
    session_id: str
    repo: str
    task: str
    model: str
    mode: Mode | Reading
    backend: str = ""  # the sandbox in use: "docker" or "bwrap"


@dataclass(frozen=True)
class PhaseChanged(EventBase):
    phase: Phase


@dataclass(frozen=True)
class TaskShaped(EventBase):
    """The shape kiln took the request for, first thing in a run: it picks the path."""

    shape: TaskShape


@dataclass(frozen=True)
class TurnStarted(EventBase):
    step: int


@dataclass(frozen=True)
class TextDelta(EventBase):
    text: str


@dataclass(frozen=True)
class ReasoningDelta(EventBase):
    text: str


@dataclass(frozen=True)
class AssistantMessage(EventBase):
    """The model's whole reply text for one turn, once streaming ended."""

    text: str


@dataclass(frozen=True)
class ToolCallStarted(EventBase):
    call_id: str
    name: str
    arguments: dict[str, Any]
    recovered_from_text: bool = False


@dataclass(frozen=True)
class ToolCallFinished(EventBase):
    call_id: str
    name: str
    ok: bool
    output: str
    duration_s: float
    exit_code: int | None = None
    truncated: bool = False


@dataclass(frozen=True)
class ApprovalRequested(EventBase):
    request_id: str
    action: Action
    summary: str
    diff: str = ""
    command: str = ""
    path: str = ""  # the file edited, or the MCP tool called
    # Why this one asks even in full-auto: what it changes outside the sandbox's reach
    # (files that run on the host or steer kiln, most of the repository deleted).
    flags: tuple[str, ...] = ()


@dataclass(frozen=True)
class ApprovalResolved(EventBase):
    request_id: str
    decision: Verdict
    reason: str = ""


@dataclass(frozen=True)
class ActionDenied(EventBase):
    """A rule of `[permissions]` refused an action before anyone was asked; the model is
    told, and `kiln run`'s result lists it."""

    action: Action  # edit, command or mcp (as in ApprovalRequested)
    summary: str
    rule: str  # "deny `run: git push*`"
    source: str = ""  # the file the rule came from


@dataclass(frozen=True)
class HookRan(EventBase):
    """A hook of the person's (or a trusted repository's) ran on the host (agent/hooks/)."""

    hook_event: HookEvent
    command: str
    outcome: HookOutcome
    exit_code: int | None  # None: not started, or stopped at its timeout
    message: str = ""  # why it blocked, or the context it added
    duration_s: float = 0.0
    tool: str = ""  # the tool, for PreToolUse and PostToolUse
    source: str = ""  # the file it came from


@dataclass(frozen=True)
class PlanUpdated(EventBase):
    steps: tuple[PlanStep, ...]


@dataclass(frozen=True)
class FilesChanged(EventBase):
    """The workspace's changed paths relative to the start, after a step."""

    paths: tuple[str, ...]


@dataclass(frozen=True)
class TestsRan(EventBase):
    command: str
    passed: int
    failed: int
    errors: int
    exit_code: int
    failing: tuple[str, ...] = ()
    digest: str = ""
    duration_s: float = 0.0


@dataclass(frozen=True)
class Compacted(EventBase):
    """The conversation was made smaller to fit the model's context window."""

    tier: int  # 1: old tool outputs became stubs; 2: older turns became a summary
    compacted: int  # messages stubbed or summarised
    kept: tuple[str, ...]  # what stayed word for word
    tokens_before: int
    tokens_after: int
    window: int
    summary: str = ""


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class WindowUsed(EventBase):
    """How full the context window is for the request about to be sent."""

    tokens: int
    window: int


@dataclass(frozen=True)
class UsageUpdated(EventBase):
    """Cumulative usage of the session; `estimated` while tokens still stream."""

    total: Usage
    last: Usage
    cost_usd: float | None  # None: a model's price is unknown (its tokens still count)
    estimated: bool = False
    ttft_s: float | None = None
    duration_s: float | None = None


@dataclass(frozen=True)
class Checkpointed(EventBase):
    ref: str
    label: str


@dataclass(frozen=True)
class Notice(EventBase):
    """Something worth showing that is not an error (recovered calls, retries...)."""

    message: str
    level: Level = Level.INFO


@dataclass(frozen=True)
class BudgetWarning(Notice):
    """A budget of the session is 80% used (dollars or tokens); the run goes on until it is
    all spent. A Notice, so every front end shows its message; the meter's bar turns."""

    budget: Budget = Budget.USD
    used: float = 0.0
    limit: float = 0.0


@dataclass(frozen=True)
class ModeChanged(EventBase):
    """The approval mode the person chose (/mode, Shift+Tab), for the meter."""

    mode: Mode


@dataclass(frozen=True)
class ModelChanged(EventBase):
    """The model the next request goes to (/model), for the meter."""

    model: str
    base_url: str = ""


@dataclass(frozen=True)
class Applied(EventBase):
    """The end of `Session.apply()`: the paths written to the working tree (none when the
    person said no, or there was nothing to write)."""

    paths: tuple[str, ...]
    approved: bool = True


@dataclass(frozen=True)
class Finished(EventBase):
    status: RunStatus
    stop_reason: StopReason
    summary: str = ""
    steps: int = 0
    tool_calls: int = 0
    usage: Usage = field(default_factory=Usage)
    cost_usd: float | None = 0.0  # None: a model's price is unknown
    duration_s: float = 0.0


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
    | Finished
    | BudgetWarning
)
