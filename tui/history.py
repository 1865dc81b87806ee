"""Prompt history kept in the XDG state dir, shared by the Textual app and line mode.

The file format is prompt-toolkit's `FileHistory` (entries as `+line` rows after a
`# timestamp` row), so line mode can hand the same file straight to prompt-toolkit.
"""

from __future__ import annotations

import datetime
from pathlib import Path

from agent.settings import paths

MAX_ENTRIES = 1000


def history_file() -> Path:
    return paths.state_dir() / "prompt-history"


class PromptHistory:
    """Oldest-first entries with a cursor for up/down browsing."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or history_file()
        self.entries: list[str] = self._load()
        self._cursor = len(self.entries)

    def _load(self) -> list[str]:
        try:
            text = self.path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return []
        entries: list[str] = []
        lines: list[str] = []
        for row in text.splitlines():
            if row.startswith("+"):
                lines.append(row[1:])
            elif lines:
                entries.append("\n".join(lines))
                lines = []
        if lines:
            entries.append("\n".join(lines))
        return entries[-MAX_ENTRIES:]

    def add(self, entry: str) -> None:
        if entry.strip() and (not self.entries or self.entries[-1] != entry):
            self.entries.append(entry)
            self._write(entry)
        self._cursor = len(self.entries)

    def _write(self, entry: str) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            with self.path.open("a", encoding="utf-8") as f:
                f.write(f"\n# {datetime.datetime.now()}\n")
                f.writelines(f"+{line}\n" for line in entry.split("\n"))
        except OSError:
            pass  # history is a convenience; a read-only state dir must not stop the session

    def previous(self) -> str | None:
        if self._cursor == 0:
            return None
        self._cursor -= 1
        return self.entries[self._cursor]

    def next(self) -> str | None:
        """The newer entry, or "" when back past the newest (an empty prompt)."""
        if self._cursor >= len(self.entries):
            return None
        self._cursor += 1
        return self.entries[self._cursor] if self._cursor < len(self.entries) else ""
