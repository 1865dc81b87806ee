"""Unified diffs split into files and aligned into side-by-side rows (no Textual here)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent.vcs.patches import changed_paths, header_paths

HUNK = re.compile(r"^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@")


def files_in(diff: str) -> list[str]:
    """The files a `git diff` touches, by their real names (git's quoting undone)."""
    return changed_paths(diff)


def diff_for_file(diff: str, path: str) -> str:
    """The part of a combined `git diff` that touches `path` ("" if none)."""
    parts = re.split(r"(?m)^(?=diff --git )", diff)
    return "".join(p for p in parts if p.startswith("diff --git ") and changed_paths(p) == [path])


@dataclass(frozen=True)
class Row:
    """One side-by-side row; a side is None where that side has no line."""

    kind: str  # "context" | "change" | "hunk" | "header"
    left_no: int | None = None
    left: str | None = None
    right_no: int | None = None
    right: str | None = None
    path: str | None = None  # the file this row belongs to, for syntax colours


def side_by_side(diff: str) -> list[Row]:
    rows: list[Row] = []
    removed: list[tuple[int, str]] = []
    added: list[tuple[int, str]] = []
    left_no = right_no = 0
    path: str | None = None

    def flush() -> None:
        for i in range(max(len(removed), len(added))):
            old = removed[i] if i < len(removed) else (None, None)
            new = added[i] if i < len(added) else (None, None)
            rows.append(Row("change", old[0], old[1], new[0], new[1], path))
        removed.clear()
        added.clear()

    for line in diff.splitlines():
        hunk = HUNK.match(line)
        if hunk:
            flush()
            left_no, right_no = int(hunk.group(1)), int(hunk.group(2))
            rows.append(Row("hunk", left=line, right=line))
        elif line.startswith(("diff --git", "+++", "---", "index ", "new file", "deleted file")):
            flush()
            if line.startswith("diff --git"):
                path = header_paths(line[len("diff --git ") :])[1]
                rows.append(Row("header", left=line, right=line))
        elif line.startswith("-"):
            removed.append((left_no, line[1:]))
            left_no += 1
        elif line.startswith("+"):
            added.append((right_no, line[1:]))
            right_no += 1
        elif line.startswith("\\"):
            continue  # "\ No newline at end of file"
        else:
            flush()
            text = line[1:] if line.startswith(" ") else line
            rows.append(Row("context", left_no, text, right_no, text, path))
            left_no += 1
            right_no += 1
    flush()
    return rows
