"""How a run ends: the Stop that carries its reason, and what each reason means outside.

Every way a run can end maps to one StopReason, and every StopReason to one Finished
status and one exit code, here in one place.
"""

from __future__ import annotations

from agent.errors import ExitCode
from agent.events import RunStatus, StopReason


class Stop(Exception):
    def __init__(self, reason: StopReason, message: str = "") -> None:
        super().__init__(message or reason.value)
        self.reason = reason
        self.message = message


def limit_stop(reason: StopReason, what: str = "") -> Stop:
    """`Stopped: max steps reached.` or, for one call, `Stopped: repeated call (edit_file).`"""
    name = reason.value.replace("_", " ")
    return Stop(reason, f"Stopped: {name} ({what})." if what else f"Stopped: {name} reached.")


LIMIT_REASONS = frozenset(
    {
        StopReason.MAX_STEPS,
        StopReason.MAX_TOOL_CALLS,
        StopReason.TOKEN_BUDGET,
        StopReason.DOLLAR_BUDGET,
        StopReason.WALL_CLOCK,
        StopReason.REPEATED_CALL,
        StopReason.FORMAT_ERRORS,
        StopReason.NO_PROGRESS,
    }
)
_STATUS = {
    StopReason.DONE: RunStatus.DONE,
    StopReason.TESTS_STILL_FAILING: RunStatus.FAILED,
    StopReason.NO_ACTION: RunStatus.FAILED,
    StopReason.NOTHING_CHANGED: RunStatus.FAILED,
    StopReason.CANCELLED: RunStatus.CANCELLED,
    StopReason.APPROVAL_NEEDED: RunStatus.ERROR,
    StopReason.HOOK_BLOCKED: RunStatus.ERROR,
    StopReason.MODEL_ERROR: RunStatus.ERROR,
    StopReason.SANDBOX_ERROR: RunStatus.ERROR,
}
_EXIT = {
    StopReason.TESTS_STILL_FAILING: ExitCode.TASK_FAILED,
    StopReason.NO_ACTION: ExitCode.TASK_FAILED,
    StopReason.NOTHING_CHANGED: ExitCode.TASK_FAILED,
    StopReason.APPROVAL_NEEDED: ExitCode.APPROVAL_NEEDED,
    StopReason.HOOK_BLOCKED: ExitCode.REFUSED,
    StopReason.SANDBOX_ERROR: ExitCode.SANDBOX,
    StopReason.MODEL_ERROR: ExitCode.MODEL,
    StopReason.CANCELLED: ExitCode.INTERRUPTED,
}


def status_for(reason: StopReason) -> RunStatus:
    return RunStatus.LIMIT if reason in LIMIT_REASONS else _STATUS[reason]


def exit_code_for(reason: StopReason, status: RunStatus, changed: bool) -> int:
    """0 only when done: a question answered, or a change made with evidence that it works
    (agent/run/evidence.py); a change without it is UNVERIFIED. Nothing changed is no fix,
    whatever tests that passed before say."""
    if reason is StopReason.DONE:
        if status is RunStatus.ANSWERED:
            return ExitCode.OK
        if not changed:
            return ExitCode.TASK_FAILED
        return ExitCode.OK if status is RunStatus.DONE else ExitCode.UNVERIFIED
    return ExitCode.LIMIT if reason in LIMIT_REASONS else _EXIT[reason]


# How a finished attempt ranks when one of several is kept (`--attempts`, `/attempts`): a
# change with evidence first, then an answer, then a change without evidence; an attempt
# that did not finish comes last.
# Keyed by text: a RunStatus (a StrEnum) and its stored string find the same entry.
_ATTEMPT_RANK: dict[str, int] = {RunStatus.DONE: 0, RunStatus.ANSWERED: 1, RunStatus.UNVERIFIED: 2}


def attempt_rank(status: str) -> int:
    return _ATTEMPT_RANK.get(status, 9)
