"""The transcript's find bar (Ctrl+F): Enter shows the block before the last one found,
Esc closes it. Loaded with the first search, not before the first frame."""

from __future__ import annotations

from textual.binding import Binding
from textual.message import Message
from textual.widgets import Input


class FindBar(Input):
    BINDINGS = [Binding("escape", "close", "close", show=False)]

    def __init__(self) -> None:
        super().__init__(placeholder="find in the transcript: Enter for the one before", id="find")

    def action_close(self) -> None:
        self.display = False
        self.post_message(self.Closed())

    class Closed(Message):
        """The person closed the bar."""
