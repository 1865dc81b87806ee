"""A diff drawn with theme colours, unified or side by side (toggle with `split`)."""

from __future__ import annotations

from rich.console import RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from tui.diff_parse import side_by_side
from tui.syntax import highlighted


class DiffView(Widget):
    COMPONENT_CLASSES = {"diff--added", "diff--removed", "diff--hunk", "diff--header", "diff--no"}

    split: reactive[bool] = reactive(False, layout=True)

    def __init__(self, diff: str, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.diff = diff

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"diff--{name}")

    def render(self) -> RenderableType:
        if not self.diff.strip():
            return Text("(no changes)")
        return self._split() if self.split else self._unified()

    def _code(self, code: str, path: str | None, style: Style | str = "") -> Text:
        line = highlighted(code, path, self.app.theme_variables)
        if style:
            line.stylize_before(style)
        return line

    def _unified(self) -> Text:
        text = Text(no_wrap=False)
        path: str | None = None
        for line in self.diff.splitlines():
            if line.startswith("+++ "):
                path = line[6:] if line.startswith("+++ b/") else None
            if line.startswith(("+++", "---", "diff --git", "index ")):
                text.append(line, style=self._style("header"))
            elif line.startswith("@@"):
                text.append(line, style=self._style("hunk"))
            elif line[:1] in ("+", "-", " "):
                kind = {"+": "added", "-": "removed", " ": ""}[line[0]]
                style = self._style(kind) if kind else ""
                text.append(line[0], style=style)
                text.append(self._code(line[1:], path, style))
            else:
                text.append(line)
            text.append("\n")
        text.rstrip()
        return text

    def _split(self) -> Table:
        table = Table.grid(expand=True, padding=(0, 1))
        for _ in range(2):
            table.add_column(width=5, justify="right", style=self._style("no"))
            table.add_column(ratio=1, overflow="fold")
        for row in side_by_side(self.diff):
            if row.kind in ("hunk", "header"):
                style = self._style(row.kind)
                table.add_row("", Text(row.left or "", style=style), "", "")
                continue
            changed = row.kind == "change"
            left_style = self._style("removed") if changed else ""
            right_style = self._style("added") if changed else ""
            left = self._code(row.left or "", row.path, left_style)
            right = self._code(row.right or "", row.path, right_style)
            table.add_row(_no(row.left_no, row.left), left, _no(row.right_no, row.right), right)
        return table


def _no(number: int | None, text: str | None) -> str:
    return "" if text is None or number is None else str(number)
