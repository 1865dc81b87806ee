"""The YAML-ish front matter of a Markdown command or skill, read without a YAML library.

What the peers write is flat: `key: value` lines, a value maybe quoted, a list either
inline (`[a, b]`) or as `- item` lines below its key. Anything else is a mistake this
reader names in one sentence; the caller keeps the file usable (the body stays the body).
"""

from __future__ import annotations

import re
from dataclasses import field

from sandbox.frozen import frozen

_KEY = re.compile(r"^([A-Za-z][\w-]*)\s*:\s*(.*)$")

Value = str | list[str]


@frozen
class FrontMatter:
    """A Markdown file's front matter read into fields, its body, and what was wrong with it."""

    fields: dict[str, Value] = field(default_factory=dict)
    raw: dict[str, str] = field(default_factory=dict)  # each one-line value as written
    body: str = ""
    problem: str = ""  # why the front matter was not read, "" when it was (or there is none)

    def text(self, key: str) -> str:
        """A field as one string: a one-line value as written (`argument-hint: [FILE]` is
        text to people, not a list), a list below its key joined by ", "; "" when absent."""
        if self.raw.get(key):
            return _scalar(self.raw[key])
        value = self.fields.get(key, "")
        return ", ".join(value) if isinstance(value, list) else value


def _scalar(raw: str) -> str:
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "\"'":
        return raw[1:-1]
    return raw


def _inline_list(raw: str) -> list[str]:
    inner = raw.strip()[1:-1]
    return [_scalar(item) for item in inner.split(",") if item.strip()]


def split(text: str) -> FrontMatter:
    """The fields and the body of a Markdown file; a file with no front matter is all body."""
    text = text.removeprefix("\ufeff")
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return FrontMatter(body=text.strip())
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() in ("---", "..."))
    except StopIteration:
        return FrontMatter(body=text.strip(), problem="its front matter has no closing `---`")
    body = "\n".join(lines[end + 1 :]).strip()
    fields: dict[str, Value] = {}
    raw_values: dict[str, str] = {}
    key, block = "", False  # the key a list or a block (`|`, `>`) below belongs to
    for number, line in enumerate(lines[1:end], start=2):
        item = line.strip()
        if not item or item.startswith("#"):
            continue
        current = fields.get(key)
        if block and line[:1].isspace() and isinstance(current, str):
            fields[key] = f"{current} {item}".strip()
            continue
        if item.startswith("- ") and isinstance(current, list):
            current.append(_scalar(item[2:]))
            continue
        match = _KEY.match(line)
        if match is None:
            problem = f"line {number} of its front matter is not `key: value`"
            return FrontMatter(body=body, problem=problem)
        key, raw = match.group(1).lower(), match.group(2).strip()
        raw_values[key] = "" if raw in ("|", ">", "|-", ">-") else raw
        block = raw in ("|", ">", "|-", ">-")
        if block:
            fields[key] = ""
        elif raw.startswith("[") and raw.endswith("]"):
            fields[key] = _inline_list(raw)
        elif not raw:
            fields[key] = []  # a list of `- item` lines follows
        else:
            fields[key] = _scalar(raw)
    return FrontMatter(fields, raw_values, body)
