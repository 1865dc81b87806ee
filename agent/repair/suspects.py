"""The functions that may hold the bug, as the repository has them, likeliest first.

The briefing finds the definitions the failing tests use (agent/context/retrieval.py);
the functions and methods among them short enough to rewrite are the suspects, those the
failure names first. The rewrites, kiln's variants and the tracer's ranking
(localise.py) all work on these.
"""

from __future__ import annotations

import posixpath
import re

from agent.context.retrieval import Found
from sandbox.frozen import frozen

MAX_SUSPECTS = 8  # kiln's own variants cover them all: each costs a test run, no request
MAX_SUSPECT_LINES = 60  # a longer definition is rewritten badly and slowly by a small model
_LANGUAGES = {".py": "python", ".js": "javascript", ".mjs": "javascript", ".ts": "typescript"}
_LANGUAGES |= {".go": "go", ".rs": "rust", ".java": "java", ".rb": "ruby"}


@frozen
class Suspect:
    """A definition that may hold the bug, as the repository has it."""

    path: str
    name: str
    line: int
    end_line: int
    text: str  # its lines, exactly

    @property
    def language(self) -> str:
        return _LANGUAGES.get(posixpath.splitext(self.path)[1], "")


def suspects(found: list[Found], texts: dict[str, str], failure: str) -> list[Suspect]:
    """Functions and methods among `found`, those the failure output names first."""
    picked: list[Suspect] = []
    for item in found:
        lines = texts.get(item.path, "").split("\n")
        span = item.end_line - item.line + 1
        if item.kind == "class" or not 0 < span <= MAX_SUSPECT_LINES or item.end_line > len(lines):
            continue
        text = "\n".join(lines[item.line - 1 : item.end_line])
        picked.append(Suspect(item.path, item.name, item.line, item.end_line, text))
    named = {s.name for s in picked if re.search(rf"\b{re.escape(s.name)}\b", failure)}
    # The failure names what the test called; the bug is as often in what that calls.
    callees = {item.name for item in found if item.parent in named} - named
    ranked = sorted(picked, key=lambda s: 0 if s.name in named else 1 if s.name in callees else 2)
    return ranked[:MAX_SUSPECTS]
