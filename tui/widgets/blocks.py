"""The pieces the transcript is made of: prompts, streamed replies, tool calls, test runs."""

from __future__ import annotations

import json

from rich.text import Text
from textual.widgets import Collapsible, Static

from agent.events import Finished, TestsRan, ToolCallFinished, ToolCallStarted
from tui.formatting import (
    call_head,
    call_result,
    finished_summary,
    tail,
    tests_passed,
    tests_summary,
)


class UserPrompt(Static):
    def __init__(self, text: str) -> None:
        super().__init__(Text(text), classes="user-prompt")


class ToolCallBlock(Collapsible):
    """One tool call, collapsed to a line; expand for arguments and output."""

    def __init__(self, started: ToolCallStarted) -> None:
        self.started = started
        self._head = call_head(started)
        arguments = json.dumps(started.arguments, indent=2, ensure_ascii=False)
        self._output = Static("", classes="tool-output")
        super().__init__(
            Static(Text(arguments), classes="tool-args"),
            self._output,
            title=f"{self._head} · running…",
            collapsed=True,
            classes="tool-call -running",
        )

    def finish(self, done: ToolCallFinished) -> None:
        self.title = f"{self._head} · {call_result(done, self.started.recovered_from_text)}"
        self.remove_class("-running")
        self.add_class("-ok" if done.ok else "-failed")
        note = "\n(output truncated for the model)" if done.truncated else ""
        self._output.update(Text(tail(done.output) + note))


class TestRunBlock(Static):
    def __init__(self, ran: TestsRan) -> None:
        outcome = "-passed" if tests_passed(ran) else "-failed"
        super().__init__(Text(tests_summary(ran)), classes=f"tests {outcome}")


class NoticeLine(Static):
    def __init__(self, message: str, level: str = "info") -> None:
        super().__init__(Text(message), classes=f"notice -{level}")


class FinishedLine(Static):
    def __init__(self, done: Finished) -> None:
        text = finished_summary(done) + (f"\n{done.summary}" if done.summary else "")
        super().__init__(Text(text), classes=f"finished -{done.status}")
