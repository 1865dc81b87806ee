"""The pieces the transcript is made of: prompts, streamed replies, tool calls, test runs."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Collapsible, Static

from tui.formatting import (
    call_head,
    call_result,
    finished_summary,
    tail,
    tests_passed,
    tests_summary,
)

if TYPE_CHECKING:  # the events load after the first frame
    from agent.events import Finished, TestsRan, ToolCallFinished, ToolCallStarted


class UserPrompt(Static):
    def __init__(self, text: str) -> None:
        super().__init__(Text(text), classes="user-prompt")


class ToolCallBlock(Collapsible):
    """One tool call, collapsed to a line; expand for arguments and output. What it holds
    is mounted when first opened: a collapsed call is three widgets, not five."""

    def __init__(self, started: ToolCallStarted, *, collapsed: bool = True) -> None:
        self.started = started
        self._head = call_head(started)
        self._output_text = ""
        self._output: Static | None = None
        super().__init__(
            title=f"{self._head} · running…",
            collapsed=collapsed,
            classes="tool-call -running",
        )

    def on_mount(self) -> None:
        if not self.collapsed:
            self._fill()

    def on_collapsible_expanded(self, message: Collapsible.Expanded) -> None:
        if message.collapsible is self:
            self._fill()

    def _fill(self) -> None:
        if self._output is not None:
            return
        arguments = json.dumps(self.started.arguments, indent=2, ensure_ascii=False)
        self._output = Static(Text(self._output_text), classes="tool-output")
        contents = self.query_one(Collapsible.Contents)
        contents.mount_all([Static(Text(arguments), classes="tool-args"), self._output])

    def finish(self, done: ToolCallFinished) -> None:
        self.title = f"{self._head} · {call_result(done, self.started.recovered_from_text)}"
        self.remove_class("-running")
        self.add_class("-ok" if done.ok else "-failed")
        note = "\n(output truncated for the model)" if done.truncated else ""
        self._output_text = tail(done.output) + note
        if self._output is not None:
            self._output.update(Text(self._output_text))


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
