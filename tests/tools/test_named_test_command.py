"""Must hold: a test command the task names after "run:" is read without the sentence's
own closing marks (a bracket opened before "run:", a full stop), and with every bracket
and quote the command itself opened."""

from __future__ import annotations

import pytest

from agent.tools.testdigest import named_test_command


@pytest.mark.parametrize(
    ("task", "command"),
    [
        ("Fix add (run: python3 -m unittest -q)", "python3 -m unittest -q"),
        ("Fix add (run: python3 -m unittest -q).", "python3 -m unittest -q"),
        ("Fix add [run: pytest -x]; thanks", "pytest -x"),
        ('Fix add ("run: make test").', "make test"),
        ("Fix add. run: pytest -k 'a and (b or c)'.", "pytest -k 'a and (b or c)'"),
        ("Fix it (run: python3 -m pytest tests/test_a.py::test_b)", "python3 -m pytest tests/test_a.py::test_b"),
        ("Fix add. run: python3 -m unittest -q", "python3 -m unittest -q"),
    ],
)  # fmt: skip
def test_run_colon_is_read_without_the_sentences_marks(task: str, command: str) -> None:
    assert named_test_command(task) == command
