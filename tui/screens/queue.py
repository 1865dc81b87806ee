"""The review queue: kiln's commits on this branch, with their diffstat, cost and tests.
Enter opens a commit's diff; a accepts it onto the branch it is for, r rewords, s squashes
it into the commit before, d drops it. Each is plain git (agent/vcs/queue.py), run in a
worker; what it did, and how `git reflog` takes it back, is said under the table."""

from __future__ import annotations

import asyncio
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Label

from agent.errors import KilnError
from agent.vcs import queue
from agent.vcs.queue import QueuedCommit
from tui.screens import DIALOG_CSS

HINT = "Enter: diff · a: accept · r: reword · s: squash into the one before · d: drop · Esc: close"


class QueueScreen(ModalScreen[None]):
    CSS_PATH = DIALOG_CSS

    ESCAPE_CLOSES = True
    BINDINGS = [
        Binding("escape,q", "dismiss", "close"),
        Binding("a", "accept", "accept"),
        Binding("r", "reword", "reword"),
        Binding("s", "squash", "squash"),
        Binding("d", "drop", "drop"),
    ]

    def __init__(self, repo: Path, session: str = "") -> None:
        super().__init__()
        self.repo = repo
        self.session = session
        self.commits: list[QueuedCommit] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("kiln's commits on this branch (● this session's)", id="question")
            yield DataTable(id="queue", cursor_type="row", zebra_stripes=True)
            yield Label("", id="status")
            yield Label(HINT, id="hint")

    async def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(" ", "commit", "message", "diffstat", "cost", "tests")
        await self.reload()
        table.focus()

    async def reload(self) -> None:
        self.commits = await asyncio.to_thread(queue.kiln_commits, self.repo)
        table = self.query_one(DataTable)
        row = table.cursor_row
        table.clear()
        for c in self.commits:
            mine = "●" if self.session and c.session == self.session else " "
            table.add_row(
                mine, c.sha[:10], Text(c.subject[:60]), c.diffstat, c.cost or "?",
                c.tests or "not run", key=c.sha,
            )  # fmt: skip
        if self.commits:
            table.move_cursor(row=min(row, len(self.commits) - 1))
        else:
            self.say("kiln has made no commits on this branch yet (/commit, or [git] commit).")

    def say(self, text: str, level: str = "info") -> None:
        status = self.query_one("#status", Label)
        status.update(Text(text))
        status.set_class(level == "error", "-error")

    def _selected(self) -> QueuedCommit | None:
        table = self.query_one(DataTable)
        if not self.commits or table.cursor_row < 0:
            return None
        return self.commits[min(table.cursor_row, len(self.commits) - 1)]

    @work(exclusive=True, group="queue", exit_on_error=False)
    async def _git(self, action: str, sha: str, subject: str = "") -> None:
        try:
            if action == "reword":
                said = await asyncio.to_thread(queue.reword, self.repo, sha, subject)
            else:
                said = await asyncio.to_thread(getattr(queue, action), self.repo, sha)
        except KilnError as exc:
            self.say(exc.message, "error")
            return
        self.say(said)
        await self.reload()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        chosen = self._selected()  # Enter on a row
        if chosen is not None:
            self._open_diff(chosen)

    @work(group="queue-diff", exit_on_error=False)
    async def _open_diff(self, chosen: QueuedCommit) -> None:
        from tui.screens.diff import DiffScreen

        diff = await asyncio.to_thread(queue.commit_diff, self.repo, chosen.sha)
        self.app.push_screen(DiffScreen(f"{chosen.sha[:10]} {chosen.subject}", diff))

    def action_accept(self) -> None:
        if chosen := self._selected():
            self._git("accept", chosen.sha)

    def action_squash(self) -> None:
        if chosen := self._selected():
            self._git("squash", chosen.sha)

    def action_drop(self) -> None:
        if chosen := self._selected():
            self._git("drop", chosen.sha)

    def action_reword(self) -> None:
        chosen = self._selected()
        if chosen is None:
            return

        def reworded(subject: str | None) -> None:
            if subject:
                self._git("reword", chosen.sha, subject)

        self.app.push_screen(RewordScreen(chosen.subject), reworded)

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)


class RewordScreen(ModalScreen[str | None]):
    """The new subject line of one commit: Enter keeps it, Esc leaves the commit as it is."""

    CSS_PATH = DIALOG_CSS

    BINDINGS = [Binding("escape", "cancel", "cancel", priority=True)]

    def __init__(self, subject: str) -> None:
        super().__init__()
        self.subject = subject

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("The new subject line (Enter keeps it, Esc cancels)", id="question")
            yield Input(self.subject, id="subject")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
