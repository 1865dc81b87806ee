"""Loop detection: the same call over and over, or two calls taking turns."""

from __future__ import annotations

from agent.events import StopReason
from agent.run.state import RunState
from agent.settings.config import Limits

READ = ("read_file", {"path": "a.py"})


def _edit(new: str) -> tuple[str, dict[str, str]]:
    return ("edit_file", {"path": "a.py", "old_text": "x", "new_text": new})


def test_two_calls_taking_turns_are_a_loop() -> None:
    state = RunState(Limits(repeat_limit=3))
    reasons = [state.before_call(*call) for call in [READ, _edit("y")] * 3]
    assert reasons == [None] * 5 + [StopReason.REPEATED_CALL]


def test_taking_turns_with_a_different_edit_each_time_is_not() -> None:
    state = RunState(Limits(repeat_limit=3))
    calls = [c for new in "uvwxyz" for c in (READ, _edit(new))]
    assert all(state.before_call(*call) is None for call in calls)
