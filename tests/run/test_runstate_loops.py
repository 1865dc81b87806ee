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


def test_a_cycle_of_four_calls_is_a_loop() -> None:
    state = RunState(Limits(repeat_limit=4))
    cycle = [_edit("a"), _edit("b"), READ, ("run_tests", {})]
    reasons = [state.before_call(*call) for call in cycle * 3]
    assert reasons == [None] * 11 + [StopReason.REPEATED_CALL]


def test_edits_that_leave_the_tests_as_they_were_end_the_run() -> None:
    from agent.tools.testdigest import digest

    state = RunState(Limits(no_progress_edits=3))
    failing = digest("pytest", "FAILED t.py::test_a - assert 1 == 2\n1 failed in 0.1s", 1)
    better = digest("pytest", "1 passed, 1 failed in 0.1s\nFAILED t.py::test_b", 1)
    assert state.after_edit_tests(failing, failing) is None
    assert state.after_edit_tests(failing, failing) is None
    assert state.after_edit_tests(failing, better) is None  # something moved: counting starts over
    assert state.after_edit_tests(better, better) is None
    assert state.edit_failed() is None
    assert state.after_edit_tests(better, better) is StopReason.NO_PROGRESS
