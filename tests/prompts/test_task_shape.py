"""A request's shape from its words (agent/prompts/shape.py), how every reader shows it, and
what it means for the exit code and the result's evidence."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

from agent.errors import ExitCode
from agent.events import StopReason, TaskShape, TaskShaped
from agent.headless.output import evidence, render_text
from agent.present import SHAPE_WORDS, shape_line
from agent.prompts.shape import shape_of
from agent.run.stops import exit_code_for, status_for
from agent.store.codec import event_from_dict
from agent.tools.testdigest import TestDigest as Digest
from tui.line_render import LineRenderer
from tui.meter_state import MeterState

QUESTIONS = [
    "What does this project do? Answer in two sentences.",
    "where is billing_dates defined?",
    "Why does parse return None for an empty line?",
    "How do I add a new subcommand?",  # a verb inside a question asks for no change
    "What does make_config do?",  # a name, not a command
    "Explain the retry logic in client.py",
    "Does add handle negative numbers?",
    "Which tests cover the exporter?",
    "Can I run the tests without docker?",  # what the person can do, not the code
    "How can we add a flag?",
]
CHANGES = [
    "Why does add fail? Fix it.",  # a question, then a command
    "make load_config support comments",
    "Can you add a --json flag to export?",
    "I want you to rename Foo to Bar",
    "Describe the modules, then update the README.",
    "customers who sign up on the 31st break our billing: their next date is wrong",
    "make the failing tests pass",
    "Please fix the tests.",
    "",
    # wrong behaviour reported, in any words: a fix is asked
    "the export drops the last row; it should include every row",
    "why does this crash on an empty file? it should return an empty list",
    "parse_date raises instead of returning None for Feb 30",
    "Is the off-by-one in chunk() on purpose? The last item is gone.",
    # more asked of the code, or a change proposed
    "could the CLI also accept a directory?",
    "Can we make the timeout configurable?",
    "nothing calls legacy_mode any more, if it's dead, rip it out",
]


@pytest.mark.parametrize("task", QUESTIONS)
def test_questions_are_told_apart(task: str) -> None:
    assert shape_of(task) is TaskShape.QUESTION


@pytest.mark.parametrize("task", CHANGES)
def test_changes_are_told_apart(task: str) -> None:
    assert shape_of(task) is TaskShape.CHANGE


def test_every_shape_has_words_for_people() -> None:
    assert set(SHAPE_WORDS) == set(TaskShape)
    for shape in TaskShape:
        assert shape_line(TaskShaped(shape)).startswith("Task: ")


def test_the_event_round_trips_through_the_store_and_reaches_every_text_reader() -> None:
    event = TaskShaped(TaskShape.QUESTION)
    as_json = json.loads(json.dumps(event.to_dict()))
    assert as_json == {"type": "task_shaped", "shape": "question"}
    assert event_from_dict(as_json) == event
    assert render_text(event) == f"  {shape_line(event)}"
    out = io.StringIO()
    LineRenderer(Console(file=out, width=120), MeterState()).show(event)
    assert "a question" in out.getvalue()


def test_the_event_reaches_an_acp_client() -> None:
    pytest.importorskip("acp")
    from agent.acp.updates import Translator

    (update,) = Translator("/repo").updates(TaskShaped(TaskShape.CHANGE))
    assert "a change to make" in update.content.text


def _digest(passed: int, failed: int) -> Digest:
    return Digest(
        command="pytest", passed=passed, failed=failed, errors=0, exit_code=int(failed > 0),
        failing=(), text="",
    )  # fmt: skip


def test_done_with_nothing_changed_is_exit_0_only_for_a_question() -> None:
    passing = _digest(3, 0)
    assert exit_code_for(StopReason.DONE, passing, False) == ExitCode.TASK_FAILED
    assert exit_code_for(StopReason.DONE, None, False) == ExitCode.TASK_FAILED
    assert exit_code_for(StopReason.DONE, passing, True) == ExitCode.OK
    assert exit_code_for(StopReason.DONE, _digest(2, 1), True) == ExitCode.TASK_FAILED
    assert exit_code_for(StopReason.DONE, None, False, TaskShape.QUESTION) == ExitCode.OK
    assert exit_code_for(StopReason.NOTHING_CHANGED, passing, False) == ExitCode.TASK_FAILED
    assert status_for(StopReason.NOTHING_CHANGED) == "failed"


def test_the_evidence_says_when_the_tests_passed_before_the_run_too() -> None:
    passing, failing = _digest(3, 0), _digest(2, 1)
    change = TaskShape.CHANGE
    assert evidence(change, passing, passing, True) == "tests passed before the run too"
    assert (
        evidence(change, failing, passing, True) == "tests failed before the run and pass after it"
    )
    assert evidence(change, passing, passing, False) == "nothing changed"
    assert evidence(change, None, None, True) == "no tests ran"
    assert evidence(TaskShape.QUESTION, passing, None, False).startswith("an answer")
