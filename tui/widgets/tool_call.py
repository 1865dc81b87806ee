"""A tool call's block in the transcript: one line, expanded for its arguments and output.

Apart from the other blocks: it is a Collapsible, which the first frame does not need (the
transcript imports this with its first tool call)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Collapsible, Static

from tui.formatting import call_head, call_result, tail

if TYPE_CHECKING:
    from agent.events import ToolCallFinished, ToolCallStarted


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
