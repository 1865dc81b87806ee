"""A request's shape from its words (agent/prompts/shape.py), how every reader shows it, and
what it means for the exit code and the result's evidence."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

from agent.errors import ExitCode
from agent.events import RunStatus, StopReason, TaskShape, TaskShaped
from agent.headless.output import render_text
from agent.present import SHAPE_WORDS, shape_line
from agent.prompts.shape import asks_for_tests, keeps_behaviour, shape_of
from agent.run.stops import exit_code_for, status_for
from agent.store.codec import event_from_dict
from tui.line_render import LineRenderer
from tui.meter_state import MeterState

QUESTIONS = [
    "What does this project do? Answer in two sentences.",
    "where is billing_dates defined?",
    "Why does parse_header lower-case the names? I assume there's a reason",  # a choice's reason
    "why do we vendor the yaml parser?",  # a choice of the project's
    "is LruCache::insert thread-safe?",  # a code path's colons end no sentence
    "walk me through what happens when a webhook comes in",
    "the logs warn `pool exhausted`. what does that mean? not looking for a fix yet",
    "I'd like to understand how the scheduler picks a worker",
    "should I fix it in the client or the server?",  # a verb after its subject asks
    "How do I add a new subcommand?",  # a verb inside a question asks for no change
    "What does make_config do?",  # a name, not a command
    "Explain the retry logic in client.py",
    "Does add handle negative numbers?",
    "Which tests cover the exporter?",
    "Can I run the tests without docker?",  # what the person can do, not the code
    "How can we add a flag?",
    # only an answer wanted, said outright, whatever else the words report
    "is it intended that parse_date rolls Feb 30 over to March? don't change anything",
    "why is this lock used instead of an RwLock? don't change it, I just want to understand",
    "the build takes 8 minutes, where does the time go? no fix needed",
    "what should I check on my side when deploy.sh says permission denied?",
    "Can you explain what this regex matches? `^(?=.*\\d).{8,}$`",  # its code is not a sentence
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
    "what's legacy_mode for? if nothing uses it just delete it",
    "explain how the cache works, and add a section about it to the docs",
    "how come the csv export always drops the last row??",  # surprise at behaviour
    "Would it be possible to export the report as xlsx as well?",
    "why is the invoice total off by a cent sometimes?",
    "how is the secret generated? also please stop hardcoding it",
    "why isn't the theme setting kept after a reload?",  # a negative why reports a symptom
    "why are the badges still counting messages I already read?",
    # the cause of what the code does asked: a report of it
    "Why does parse return None for an empty line?",
    "any idea why go test hangs in the ratelimit package?",
    "why is my CSV export missing the last row??",
    # a scene set with "when I run", not a question word
    "When I run `report --since 2024-01-01` it ignores --since. Expected only newer rows.",
    "explain what reconcile does, then put that in a comment above it",
    # a change wished for, or asked after a question
    "How is the session timeout set? I'd like it bumped to 8 hours",
    "why do we use a Mutex here? if there's no good reason, switch it to an RWMutex",
    "what's the difference between fetchUser and getUser? if they match merge them",
    "how does the retry queue pick its backoff? also cap it at 10 minutes",
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


def test_exit_0_only_for_an_answer_or_a_change_done_with_evidence() -> None:
    done, unverified, answered = RunStatus.DONE, RunStatus.UNVERIFIED, RunStatus.ANSWERED
    assert exit_code_for(StopReason.DONE, done, False) == ExitCode.TASK_FAILED
    assert exit_code_for(StopReason.DONE, done, True) == ExitCode.OK
    assert exit_code_for(StopReason.DONE, unverified, True) == ExitCode.UNVERIFIED
    assert exit_code_for(StopReason.DONE, answered, False) == ExitCode.OK
    failed = status_for(StopReason.NOTHING_CHANGED)
    assert exit_code_for(StopReason.NOTHING_CHANGED, failed, False) == ExitCode.TASK_FAILED
    assert failed == "failed"


KEEPING = [
    "rename load_config to read_config everywhere",
    "refactor the parser into smaller functions",
    "add docstrings to the public functions in utils.py",
    "fix the typo in the README",
    "reformat cli.py, no behaviour change",
    "add type hints to models.py",
    "move the date helpers into their own module",
]
BEHAVING = [
    # a word of the keeping kind that names something else: a colour, a past refactor,
    # a noun, a behaviour to copy
    "dark mode: text in the settings modal is black on dark grey, unreadable",
    "the flag is never checked, lost in the refactor. Expected: nothing removed. Actual: gone",
    "the client wants the reset link on the login screen too, same behaviour as the other one",
    "the nightly job double counts refunds. dedupe on charge_id",
    "it would be nice if the cleanup command had a --dry-run flag",
    "fix the crash when the file is empty",
    "add a --json flag to the export command",
    "rename the --out flag to --output and accept the old one too",
    "refactor the cache so it handles concurrent writers",
    "the docs example raises KeyError, fix the code",
    "make parse_size return bytes for '1.5k'",
    "make load skip comment lines starting with #",  # about comments, not adding them
    "update the docs and the parser so empty lines count",
    "update the README install steps for node 20 and bump engines to >=20",
]


@pytest.mark.parametrize("task", KEEPING)
def test_a_request_that_keeps_behaviour(task: str) -> None:
    assert keeps_behaviour(task)


@pytest.mark.parametrize("task", BEHAVING)
def test_a_request_that_changes_behaviour(task: str) -> None:
    assert not keeps_behaviour(task)


def test_tests_asked_for_unless_wrong_behaviour_is_reported() -> None:
    assert asks_for_tests("add unit tests for parse_size")
    assert asks_for_tests("cover the exporter with tests")
    assert not asks_for_tests("the tests show parse_size raises on '1.5k'")
    assert not asks_for_tests("make parse_size accept '1.5k'")
