"""A thinking model's reasoning in the transcript: one collapsed line that says how much it
thought, opened for the text. A Collapsible, like a tool call's block, loaded with the
first reasoning (the first frame does not need it)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Collapsible, Static


def thinking_title(said: str) -> str:
    words = len(said.split())
    return f"Thinking · {words:,} word{'s' if words != 1 else ''}"


class ThinkingBlock(Collapsible):
    """The reasoning, collapsed to its title; its text is mounted when first opened."""

    def __init__(self, said: str, *, collapsed: bool = True) -> None:
        self.said = said
        self._text: Static | None = None
        super().__init__(title=thinking_title(said), collapsed=collapsed, classes="thinking")

    def on_mount(self) -> None:
        if not self.collapsed:
            self._fill()

    def on_collapsible_expanded(self, message: Collapsible.Expanded) -> None:
        if message.collapsible is self:
            self._fill()

    def _fill(self) -> None:
        if self._text is None:
            self._text = Static(Text(self.said), classes="thinking-text")
            self.query_one(Collapsible.Contents).mount(self._text)

    def write(self, said: str) -> None:
        """The reasoning so far (it streams): the title counts it, an open block shows it."""
        self.said = said
        self.title = thinking_title(said)
        if self._text is not None:
            self._text.update(Text(said))
