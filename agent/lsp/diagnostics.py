"""Diagnostics: read from a server, compared before and after an edit, told compactly.

An edit moves lines, so a diagnostic is known again by its file, severity, code and
message, never by its line: what is there after the edit beyond what was there before
(counted, so a second copy of an old error is new) is what the edit introduced.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from sandbox.frozen import frozen

SEVERITIES = {1: "error", 2: "warning", 3: "info", 4: "hint"}
TSSERVER_CATEGORIES = {"error": "error", "warning": "warning", "suggestion": "hint"}
TOLD = ("error", "warning")  # what the model hears of; infos and hints are style
MAX_LINES = 10  # of the report, its heading and "more" line included
MESSAGE_CHARS = 200
HEADING = "reports problems this edit introduced:"
_TOLD_LINE = re.compile(r"^\S.*:\d+:\d+: (error|warning): ")
_MORE_LINE = re.compile(r"^\.\.\. and (\d+) more$")


@frozen
class Diagnostic:
    line: int  # from 1
    column: int  # from 1
    severity: str  # error, warning, info, hint
    message: str
    code: str = ""
    path: str = ""  # the workspace path, once the caller knows which file it is about

    @property
    def identity(self) -> tuple[str, str, str, str]:
        """What stays the same when the lines around it move."""
        return (self.path, self.severity, self.code, self.message)


def from_lsp(item: dict[str, Any]) -> Diagnostic:
    start = (item.get("range") or {}).get("start") or {}
    severity = item.get("severity")
    return Diagnostic(
        line=_int(start.get("line")) + 1,
        column=_int(start.get("character")) + 1,
        severity=SEVERITIES.get(severity, "error") if isinstance(severity, int) else "error",
        message=str(item.get("message", "")),
        code=_code(item.get("code")),
    )


def from_tsserver(item: dict[str, Any]) -> Diagnostic:
    """One of tsserver's own diagnostics (`semanticDiagnosticsSync` and the like)."""
    start = item.get("start") or {}
    return Diagnostic(
        line=_int(start.get("line"), 1),
        column=_int(start.get("offset"), 1),
        severity=TSSERVER_CATEGORIES.get(str(item.get("category")), "info"),
        message=str(item.get("text", "")),
        code=_code(item.get("code")),
    )


def introduced(before: Iterable[Diagnostic], after: Iterable[Diagnostic]) -> list[Diagnostic]:
    """What `after` has beyond `before`, by identity and count; errors first, then by
    file and line."""
    left = Counter(d.identity for d in before)
    new: list[Diagnostic] = []
    for diagnostic in after:
        if left[diagnostic.identity] > 0:
            left[diagnostic.identity] -= 1
        elif diagnostic.severity in TOLD:
            new.append(diagnostic)
    return sorted(new, key=lambda d: (TOLD.index(d.severity), d.path, d.line, d.column))


def report(server: str, found: list[Diagnostic]) -> str:
    """The lines the model reads after the edit's result; "" when nothing is new."""
    if not found:
        return ""
    shown = found[: MAX_LINES - 1] if len(found) < MAX_LINES else found[: MAX_LINES - 2]
    lines = [f"{server} {HEADING}"]
    lines += [_line(d) for d in shown]
    if len(found) > len(shown):
        lines.append(f"... and {len(found) - len(shown)} more")
    return "\n".join(lines)


def problems_told(output: str) -> int:
    """How many problems an edit's result tells of (by its report), 0 without a report:
    what a front end shows on the edit's one line."""
    lines = output.splitlines()
    start = next((i for i, line in enumerate(lines) if line.endswith(HEADING)), None)
    if start is None:
        return 0
    count = 0
    for line in lines[start + 1 :]:
        more = _MORE_LINE.match(line)
        if more:
            return count + int(more.group(1))
        if not _TOLD_LINE.match(line):
            break
        count += 1
    return count


def _line(d: Diagnostic) -> str:
    message = d.message.strip().splitlines()[0] if d.message.strip() else "(no message)"
    if len(message) > MESSAGE_CHARS:
        message = message[: MESSAGE_CHARS - 3] + "..."
    code = f" [{d.code}]" if d.code else ""
    return f"{d.path}:{d.line}:{d.column}: {d.severity}: {message}{code}"


def _int(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _code(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return ""
    if isinstance(value, dict):  # LSP's { value, target } form
        return _code(value.get("value"))
    return str(value)
