"""A `git diff` read into one entry per file, with the real names of the files it touches.

git C-quotes a name with a `"`, a backslash or a control character in it (a tab, a
newline), and with core.quotepath on every byte over 0x7f too: `"a/q\\"x"`. Every reader of
the diff's names (the apply-time checks, `files_changed`, the review, the TUI) goes through
this one parser, so a name cannot mean one thing to kiln's checks and another to
`git apply`. Lines are split on "\\n" only, as git splits them (`str.splitlines` would also
split on U+2028 and others, which a name or a line of a file may hold), and a hunk's lines
are counted from its `@@` header, so a file's own line is never taken for a header.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_ZERO = re.compile(r"^0+$")
_HUNK = re.compile(r"^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")
_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}
SYMLINK_MODE = "120000"


class BadQuoting(ValueError):
    """A quoted name that git would not have written."""


@dataclass
class FilePatch:
    """One file's part of a diff: its old and new names and blobs, flags, a link's target."""

    old_path: str | None
    new_path: str | None
    old_blob: str | None = None  # None: unknown (pure rename or mode change)
    new_blob: str | None = None
    flags: set[str] = field(default_factory=set)
    symlink_to: str | None = None  # the target, when the new side is a symbolic link

    @property
    def path(self) -> str:
        """The name it has after the change (the old one for a deletion)."""
        return self.new_path or self.old_path or ""


def diff_bytes(diff_text: str) -> bytes:
    """The diff as git wrote it. Diffs are read as UTF-8 with surrogateescape, so a file
    that is not UTF-8 (a Latin-1 source) keeps its bytes; every file or pipe a diff is
    written to takes these bytes, never the text encoded strictly."""
    return diff_text.encode("utf-8", "surrogateescape")


def diff_from_bytes(data: bytes) -> str:
    """A diff read back from a file `diff_bytes` wrote."""
    return data.decode("utf-8", "surrogateescape")


def unquote_prefix(text: str) -> tuple[str, str]:
    """The C-quoted name `text` starts with, decoded, and what follows its closing quote.

    Escaped bytes (`\\303\\251`) are decoded as UTF-8 with surrogateescape, as the diff's
    own bytes were, so a name that is not UTF-8 still round-trips to the file system."""
    if not text.startswith('"'):
        raise BadQuoting(f"not a quoted name: {text[:40]!r}")
    out = bytearray()
    i = 1
    while i < len(text):
        char = text[i]
        if char == '"':
            return out.decode("utf-8", "surrogateescape"), text[i + 1 :]
        if char != "\\":
            out += char.encode("utf-8", "surrogateescape")
            i += 1
            continue
        escape = text[i + 1 : i + 2]
        if escape in _ESCAPES:
            out.append(_ESCAPES[escape])
            i += 2
        elif re.fullmatch(r"[0-3][0-7][0-7]", text[i + 1 : i + 4]):
            out.append(int(text[i + 1 : i + 4], 8))
            i += 4
        else:
            raise BadQuoting(f"unknown escape in {text[:40]!r}")
    raise BadQuoting(f"no closing quote in {text[:40]!r}")


def unquote(name: str) -> str:
    """A name as git prints it, quoted or not, as it is on disk."""
    if not name.startswith('"'):
        return name
    decoded, rest = unquote_prefix(name)
    if rest:
        raise BadQuoting(f"text after a quoted name: {name[:40]!r}")
    return decoded


def header_paths(rest: str) -> tuple[str, str]:
    """The two names of `diff --git A B` (after "diff --git "), without their a/ b/.

    Either may be quoted. When neither is, a name holding " b/" makes the split a guess;
    the `rename`/`copy` and `---`/`+++` lines that follow are exact and correct it."""
    if rest.startswith('"'):
        old, after = unquote_prefix(rest)
        new = unquote(after[1:]) if after.startswith(" ") else after
    elif rest.endswith('"'):
        old, new = _unquoted_then_quoted(rest)
    else:
        half = (len(rest) - 1) // 2
        if rest[half] == " " and rest[2:half] == rest[half + 3 :]:
            old, new = rest[:half], rest[half + 1 :]
        else:
            old, _, tail = rest.partition(" b/")
            new = "b/" + tail
    return _strip_prefix(old, "a/"), _strip_prefix(new, "b/")


def _unquoted_then_quoted(rest: str) -> tuple[str, str]:
    for match in re.finditer(' "', rest):
        try:
            return rest[: match.start()], unquote(rest[match.start() + 1 :])
        except BadQuoting:
            continue
    raise BadQuoting(f"cannot split the header {rest[:60]!r}")


def _strip_prefix(name: str, prefix: str) -> str:
    return name[len(prefix) :] if name.startswith(prefix) else name


def marker_path(line: str) -> str | None:
    """The name on a `--- a/X` or `+++ b/X` line; None for /dev/null.

    git ends the line with a tab when an unquoted name holds a space."""
    name = line[4:]
    name = unquote(name.removesuffix("\t")) if name.startswith('"') else name.removesuffix("\t")
    if name == "/dev/null":
        return None
    return name[2:] if name[:2] in ("a/", "b/") else name


def parse_patches(diff_text: str) -> list[FilePatch]:
    """One FilePatch per `diff --git` section, its names and a link's target exact."""
    reader = _Reader()
    for line in diff_text.split("\n"):
        reader.feed(line)
    reader.close()
    return reader.patches


class _Reader:
    def __init__(self) -> None:
        self.patches: list[FilePatch] = []
        self.current: FilePatch | None = None
        self.new_side: list[str] = []  # the new side's lines, which for a link are its target
        self.no_newline = False  # the new side's last line had no newline after it
        self.old_left = self.new_left = 0  # lines left in the hunk being read
        self.last_kind = ""  # the hunk's last line: "+", "-" or " "

    def feed(self, line: str) -> None:
        if self.old_left > 0 or self.new_left > 0:
            self._hunk_line(line)
        elif line.startswith("diff --git "):
            self.close()
            old, new = header_paths(line[len("diff --git ") :])
            self.current = FilePatch(old, new)
            self.patches.append(self.current)
            self.new_side, self.no_newline, self.last_kind = [], False, ""
        elif self.current is None:
            return
        elif match := _HUNK.match(line):
            self.old_left, self.new_left = _count(match.group(1)), _count(match.group(2))
        elif line.startswith("\\"):
            self._no_newline()
        else:
            _header_line(self.current, line)

    def _hunk_line(self, line: str) -> None:
        kind = line[:1]
        if kind == "\\":
            self._no_newline()
            return
        self.last_kind = kind or " "
        if kind in (" ", ""):
            self.old_left, self.new_left = self.old_left - 1, self.new_left - 1
            self.new_side.append(line[1:])
        elif kind == "-":
            self.old_left -= 1
        elif kind == "+":
            self.new_left -= 1
            self.new_side.append(line[1:])

    def _no_newline(self) -> None:
        """`\\ No newline at end of file` is about the line before it: the new side's last
        line when that was an added or a context line."""
        if self.last_kind in ("+", " "):
            self.no_newline = True

    def close(self) -> None:
        """A link's target is its new side's lines joined (with no newline at the end when
        git said so); a target over several lines is still one target."""
        patch = self.current
        if patch is None or patch.symlink_to is None:
            return
        ending = "" if self.no_newline or not self.new_side else "\n"
        patch.symlink_to = "\n".join(self.new_side) + ending


def _count(group: str | None) -> int:
    return 1 if group is None else int(group)


def _header_line(current: FilePatch, line: str) -> None:
    if line.startswith("index "):
        blobs = line.split()[1].split("..")
        current.old_blob = None if _ZERO.match(blobs[0]) else blobs[0]
        current.new_blob = blobs[-1] if len(blobs) == 2 and not _ZERO.match(blobs[-1]) else None
        if line.endswith(" " + SYMLINK_MODE):
            current.symlink_to = ""
    elif line.startswith(("new file mode", "deleted file mode")):
        current.flags.add(line.split()[0])
        if line.startswith("new") and line.endswith(SYMLINK_MODE):
            current.symlink_to = ""
    elif line.startswith("new mode") and line.endswith(SYMLINK_MODE):
        current.symlink_to = ""
    elif line.startswith(("rename from ", "copy from ")):
        current.old_path = unquote(line.split(" ", 2)[2])
    elif line.startswith(("rename to ", "copy to ")):
        current.new_path = unquote(line.split(" ", 2)[2])
    elif line.startswith("--- "):
        current.old_path = marker_path(line)
    elif line.startswith("+++ "):
        current.new_path = marker_path(line)


def changed_paths(diff_text: str) -> list[str]:
    """Each touched file's name after the change (the old name for a deletion)."""
    return [patch.path for patch in parse_patches(diff_text)]
