"""A unified diff read into files and hunks, each line with its new-side number.

The model anchors findings on new-side lines (what the file says after the change), so the
diff it is shown carries those numbers; old-side lines are shown unnumbered. Binary files,
pure renames and deletions carry no lines to anchor on and become notes instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from agent.vcs.patches import header_paths, marker_path, unquote

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$")


@dataclass
class Line:
    kind: str  # "+" added, "-" removed, " " context
    text: str
    new_number: int | None  # None for a removed line


@dataclass
class Hunk:
    new_start: int
    heading: str  # what git prints after @@ (the enclosing function)
    lines: list[Line] = field(default_factory=list)

    @property
    def new_range(self) -> tuple[int, int]:
        numbers = [line.new_number for line in self.lines if line.new_number is not None]
        return (min(numbers), max(numbers)) if numbers else (self.new_start, self.new_start)


@dataclass
class FileChange:
    path: str  # the new path (the old one for a deletion)
    old_path: str
    status: str = "modified"  # added | deleted | modified | renamed
    binary: bool = False
    hunks: list[Hunk] = field(default_factory=list)

    @property
    def reviewable(self) -> bool:
        """Whether there are new-side lines to read: not binary, not deleted, not empty."""
        return not self.binary and self.status != "deleted" and bool(self.hunks)

    @property
    def added_lines(self) -> set[int]:
        return {
            line.new_number
            for hunk in self.hunks
            for line in hunk.lines
            if line.kind == "+" and line.new_number is not None
        }


def parse_diff(text: str) -> list[FileChange]:
    files: list[FileChange] = []
    current: FileChange | None = None
    hunk: Hunk | None = None
    new_line = 0
    # Split as git does, on "\n" only: a name may hold U+2028 and the like.
    for raw in (line.removesuffix("\r") for line in text.removesuffix("\n").split("\n")):
        if raw.startswith("diff --git "):
            old, new = header_paths(raw[len("diff --git ") :])
            current, hunk = FileChange(new, old), None
            files.append(current)
        elif current is None or (hunk is None and _header(current, raw)):
            continue
        elif match := _HUNK.match(raw):
            new_line = int(match.group(3))
            hunk = Hunk(new_line, match.group(5).strip())
            current.hunks.append(hunk)
        elif hunk is not None and raw[:1] in ("+", "-", " ", ""):
            kind = raw[:1] or " "
            if kind == "-":
                hunk.lines.append(Line("-", raw[1:], None))
            else:
                hunk.lines.append(Line(kind, raw[1:], new_line))
                new_line += 1
    return files


def _header(change: FileChange, raw: str) -> bool:
    """Read one extended header line (before the first hunk); False for anything else."""
    if raw.startswith("new file mode"):
        change.status = "added"
    elif raw.startswith("deleted file mode"):
        change.status = "deleted"
        change.path = change.old_path
    elif raw.startswith("rename from "):
        change.old_path, change.status = unquote(raw[len("rename from ") :]), "renamed"
    elif raw.startswith("rename to "):
        change.path = unquote(raw[len("rename to ") :])
    elif raw.startswith("Binary files ") or raw.startswith("GIT binary patch"):
        change.binary = True
    elif raw.startswith("--- "):
        change.old_path = marker_path(raw) or change.old_path
    elif raw.startswith("+++ "):
        change.path = marker_path(raw) or change.path
    else:
        return raw.startswith(("index ", "old mode", "new mode", "similarity", "dissimilarity"))
    return True


def render(change: FileChange, hunks: list[Hunk] | None = None) -> str:
    """The file's change as the model reads it: new-side numbers left of each kept line."""
    title = (
        change.path
        if change.status != "renamed"
        else f"{change.path} (renamed from {change.old_path})"
    )
    out = [f"=== {title} ({change.status})"]
    for hunk in hunks if hunks is not None else change.hunks:
        first, last = hunk.new_range
        out.append(f"@@ new lines {first}-{last} @@ {hunk.heading}".rstrip())
        for line in hunk.lines:
            number = f"{line.new_number:>5}" if line.new_number is not None else "     "
            out.append(f"{number} {line.kind}{line.text}")
    return "\n".join(out)


def skipped_note(change: FileChange) -> str:
    """Why a file that changed is not read line by line (an empty string when it is)."""
    if change.binary:
        return f"{change.path}: a binary file, skipped."
    if change.status == "deleted":
        return f"{change.path}: deleted."
    if not change.hunks and change.status == "renamed":
        return f"{change.path}: renamed from {change.old_path}, content unchanged."
    if not change.hunks:
        return f"{change.path}: mode change only."
    return ""
