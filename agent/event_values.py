"""The values events carry, apart from the events: their enums, token counts, plan steps.

A front end shows some of these before any event arrives (the meter's token counts, the
side panel's plan marks), and its first frame should not wait for the thirty event
dataclasses (`events.py`, which re-exports every name here): building a frozen dataclass
runs its generated methods through `exec`, about 0.4 ms each, so `events.py` took 15-25 ms
of the TUI's first frame. These are enums and two small dataclasses.
"""

from __future__ import annotations

import enum

from sandbox.frozen import frozen


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
    """How a run ended, in one word; `Finished.stop_reason` says why. A run that finished
    its request is `done` only with evidence that fits it (agent/run/evidence.py); a change
    without it is `unverified`, a question's answer `answered`."""

    DONE = "done"
    UNVERIFIED = "unverified"
    ANSWERED = "answered"
    FAILED = "failed"
    LIMIT = "limit"
    CANCELLED = "cancelled"
    ERROR = "error"


class JobEnd(enum.StrEnum):
    """How a job (a command the model keeps running: `run` with `background`) ended; the
    values are sandbox/services.py's."""

    EXITED = "exited"  # on its own
    STOPPED = "stopped"  # the model stopped it
    PERSON = "person"  # the person did (/jobs stop)
    RUN_ENDED = "run_ended"  # still running when `kiln run` ended
    DISK = "disk_limit"  # the workspace grew past the disk limit while no command ran
    LOST = "lost"  # the sandbox went away (closed, or its command server died)


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


@frozen
class Usage:
    """Token counts. `uncached_input` excludes cache reads and cache writes."""

    uncached_input: int = 0
    cached_input: int = 0
    cache_write: int = 0
    output: int = 0
    reasoning: int = 0  # of `output`: the reasoning tokens a thinking model spent (paid as output)

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
            self.reasoning + other.reasoning,
        )


@frozen
class PlanStep:
    """One step of the model's plan: its title and how far it has got."""

    title: str
    status: PlanStatus = PlanStatus.PENDING
