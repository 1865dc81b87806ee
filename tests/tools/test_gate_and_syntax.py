from __future__ import annotations

import pytest

from agent.approval import Action, ApprovalRequest, Decision, Mode, Verdict
from agent.events import ApprovalRequested, ApprovalResolved, Event
from agent.tools.gate import ApprovalGate, ApprovalStop, is_safe_command
from agent.tools.syntax import introduced_errors


class RecordingApprover:
    """A person who answers from a queue of verdicts and remembers what was asked."""

    def __init__(self, *answers: Decision) -> None:
        self.answers = list(answers)
        self.asked: list[ApprovalRequest] = []

    async def decide(self, request: ApprovalRequest) -> Decision:
        self.asked.append(request)
        return self.answers.pop(0)


@pytest.mark.parametrize(
    "command",
    [
        "ls -la",
        "git status",
        "git diff HEAD~1",
        "python3 -m pytest -q tests/",
        "python -m unittest discover",
        "grep -rn foo src | head -20",
        "cat a.py && wc -l a.py",
        "pytest -x 2>&1 | tail -5",
        "find . -name '*.py'",
    ],
)
def test_safe_commands(command: str) -> None:
    assert is_safe_command(command)


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf /",
        "echo hi > file",
        "git push",
        "git commit -am x",
        "python3 setup.py install",
        "pip install requests",
        "ls; rm x",
        "cat $(which python)",
        "find . -delete",
        "make deploy",
        "",
    ],
)
def test_unsafe_commands(command: str) -> None:
    assert not is_safe_command(command)


async def test_ask_mode_asks_and_always_is_remembered() -> None:
    person = RecordingApprover(Decision(Verdict.ALWAYS))
    gate = ApprovalGate(person, Mode.ASK)
    events: list[Event] = []
    assert await gate.check(Action.EDIT, "edit a.py", events.append, diff="-a\n+b") is None
    assert await gate.check(Action.EDIT, "edit b.py", events.append) is None
    assert len(person.asked) == 1  # the second edit was not asked about
    assert [type(e) for e in events] == [ApprovalRequested, ApprovalResolved]
    assert isinstance(events[1], ApprovalResolved) and events[1].decision == "always"


async def test_rejection_reason_goes_back() -> None:
    gate = ApprovalGate(RecordingApprover(Decision(Verdict.REJECT, "use a flag")), Mode.ASK)
    refusal = await gate.check(Action.COMMAND, "run `make x`", lambda e: None, command="make x")
    assert refusal is not None and "use a flag" in refusal


async def test_safe_commands_are_not_asked_about_in_ask_mode() -> None:
    person = RecordingApprover()
    gate = ApprovalGate(person, Mode.ASK)
    assert await gate.check(Action.COMMAND, "run", lambda e: None, command="git status") is None
    assert person.asked == []


async def test_plan_mode_refuses_and_fail_mode_stops() -> None:
    person = RecordingApprover()
    plan = ApprovalGate(person, Mode.PLAN)
    refusal = await plan.check(Action.EDIT, "edit a.py", lambda e: None)
    assert refusal is not None and "plan mode" in refusal
    fail = ApprovalGate(person, Mode.FAIL)
    with pytest.raises(ApprovalStop):
        await fail.check(Action.COMMAND, "run `make`", lambda e: None, command="make")
    assert person.asked == []


async def test_auto_modes_do_not_ask_for_edits() -> None:
    person = RecordingApprover()
    for mode in (Mode.AUTO_EDIT, Mode.FULL_AUTO):
        gate = ApprovalGate(person, mode)
        assert await gate.check(Action.EDIT, "edit", lambda e: None) is None
        assert await gate.check(Action.COMMAND, "run", lambda e: None, command="make") is None
    assert person.asked == []


def test_syntax_errors_the_edit_introduced() -> None:
    good = b"def f():\n    return 1\n"
    bad = b"def f(:\n    return 1\n"
    warning = introduced_errors("a.py", good, bad)
    assert "no longer parses as python" in warning and "line 1" in warning
    assert introduced_errors("a.py", good, good) == ""
    assert introduced_errors("a.py", bad, bad) == ""  # already broken: not this edit's fault
    assert introduced_errors("notes.txt", good, bad) == ""
    assert "javascript" in introduced_errors("a.js", b"let x = 1;\n", b"let x = (1;\n")
