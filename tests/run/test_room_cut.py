"""The last resort of a request over the window halves the longest messages: a message
holding the person's task keeps the task whole and loses only the rest."""

from __future__ import annotations

from agent.run.room import _cuttable, _halved

TASK = "Make load_config accept comments that start with #, as the README says."


def test_halving_keeps_the_task_and_shrinks_the_rest() -> None:
    briefing = (
        "kiln ran the tests:\n" + "x" * 4000 + "\n\n" + TASK + "\n\nReply with one tool call."
    )
    cut = _halved(briefing, TASK)
    assert TASK in cut and len(cut) < len(briefing) * 0.7
    assert _cuttable(briefing, TASK) == len(briefing) - len(TASK)
    plain = "y" * 1000
    assert TASK not in _halved(plain, TASK) and len(_halved(plain, TASK)) < 700
