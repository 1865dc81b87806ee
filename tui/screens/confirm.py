"""A yes/no question in a modal (first-run install of the local model, and the like)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label

from tui.screens import DIALOG_CSS


class ConfirmScreen(ModalScreen[bool]):
    CSS_PATH = DIALOG_CSS

    BINDINGS = [
        Binding("y", "answer(True)", "yes"),
        Binding("n", "answer(False)", "no"),
        Binding("escape", "answer(False)", "no", priority=True),
    ]

    def __init__(self, question: str, detail: str = "", yes: str = "Yes [y]") -> None:
        super().__init__()
        self.question, self.detail, self.yes = question, detail, yes

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.question, id="question")
            if self.detail:
                yield Label(Text(self.detail), id="summary")
            with Horizontal(id="choices"):
                yield Button(Text(self.yes), id="yes", variant="success")
                yield Button(Text("No [n]"), id="no", variant="error")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
