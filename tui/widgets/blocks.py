"""The pieces the transcript is made of: prompts, notices, test runs, a run's end (a tool
call's block is `tool_call.py`, a streamed reply's `reply.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from tui.formatting import finished_summary, tests_passed, tests_summary

if TYPE_CHECKING:  # the events load after the first frame
    from agent.events import Finished, TestsRan


class UserPrompt(Static):
    def __init__(self, text: str) -> None:
        super().__init__(Text(text), classes="user-prompt")


class TestRunBlock(Static):
    def __init__(self, ran: TestsRan) -> None:
        outcome = "-passed" if tests_passed(ran) else "-failed"
        super().__init__(Text(tests_summary(ran)), classes=f"tests {outcome}")


class NoticeLine(Static):
    def __init__(self, message: str, level: str = "info") -> None:
        super().__init__(Text(message), classes=f"notice -{level}")


class FinishedLine(Static):
    def __init__(self, done: Finished) -> None:
        said = [finished_summary(done), done.evidence, done.summary]
        text = "\n".join(part for part in said if part)
        super().__init__(Text(text), classes=f"finished -{done.status}")
