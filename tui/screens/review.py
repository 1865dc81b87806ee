"""A review's findings (/review): one row per finding, the most severe first, the body of
the one under the cursor below; Enter shows that file's part of the reviewed change."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label

from agent.present import format_usage
from agent.review.formats import PRIORITY_NAMES
from agent.review.reviewer import ReviewResult
from tui.screens import DIALOG_CSS

HINT = "↑/↓ a finding · Enter: the change in its file · Esc: close"


class ReviewScreen(ModalScreen[None]):
    CSS_PATH = DIALOG_CSS

    ESCAPE_CLOSES = True
    BINDINGS = [Binding("escape,q", "dismiss", "close")]

    def __init__(self, result: ReviewResult) -> None:
        super().__init__()
        self.result = result

    def compose(self) -> ComposeResult:
        result = self.result
        head = f"Review of {result.target.label}: {result.verdict}, {len(result.findings)} findings"
        with Vertical(id="dialog"):
            yield Label(Text(head), id="question")
            if result.summary:
                yield Label(Text(result.summary), id="summary")
            yield DataTable(id="findings", cursor_type="row", zebra_stripes=True)
            yield Label("", id="finding")
            tail = [*result.notes, format_usage(result.usage, result.cost_usd)]
            yield Label(Text("\n".join(tail)), id="notes")
            yield Label(HINT, id="hint")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("", "where", "category", "confidence", "finding")
        for f in self.result.findings:
            where = f"{f.path}:{f.line}" + (f"-{f.end_line}" if f.end_line != f.line else "")
            table.add_row(
                PRIORITY_NAMES[f.priority], where, f.category, f"{f.confidence:.2f}",
                Text(f.title), key=f.id,
            )  # fmt: skip
        table.focus()
        self._show(0)

    def _show(self, row: int) -> None:
        findings = self.result.findings
        if not findings:
            self.query_one("#finding", Label).update("No findings.")
            return
        f = findings[min(max(row, 0), len(findings) - 1)]
        text = f.body + (f"\nSuggestion:\n{f.suggestion}" if f.suggestion else "")
        self.query_one("#finding", Label).update(Text(text))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show(event.cursor_row)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        from tui.diff_parse import diff_for_file
        from tui.screens.diff import DiffScreen

        f = self.result.findings[event.cursor_row]
        diff = diff_for_file(self.result.target.diff, f.path)
        self.app.push_screen(DiffScreen(f"{f.path} in {self.result.target.label}", diff))

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
