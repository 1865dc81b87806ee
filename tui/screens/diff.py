"""A read-only look at a diff (/diff, or a file chosen in the side panel)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label

from tui.screens import DIALOG_CSS
from tui.widgets.diff_view import DiffView


class DiffScreen(ModalScreen[None]):
    CSS_PATH = DIALOG_CSS

    ESCAPE_CLOSES = True  # the app's Esc (interrupt) gives way here
    BINDINGS = [
        Binding("escape,q", "dismiss", "close"),
        Binding("v", "toggle_view", "unified / side by side"),
    ]

    def __init__(self, title: str, diff: str) -> None:
        super().__init__()
        self.title_text = title
        self.diff = diff

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(Text(self.title_text), id="question")
            with VerticalScroll(id="diff-scroll"):
                yield DiffView(self.diff, id="diff")
            yield Label("v: unified / side by side · Esc: close", id="hint")

    def on_mount(self) -> None:
        self.query_one("#diff-scroll").focus()

    def action_toggle_view(self) -> None:
        view = self.query_one(DiffView)
        view.split = not view.split

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
