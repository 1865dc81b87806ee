"""A finding as the model reports it, checked field by field, and its stable fingerprint.

The fingerprint hashes the path, the title with case, digits and spacing folded, and the
text of the line it is anchored on (not the line's number), so the same problem found
again after lines above it moved gets the same id and repeated reviews dedupe.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import asdict
from typing import Any

from sandbox.frozen import frozen

CATEGORIES = ("bug", "security", "performance", "maintainability", "test", "style")
VERDICTS = ("correct", "incorrect")


class BadFinding(ValueError):
    """What the model must fix in its report_finding call; sent back as the tool result."""


@frozen
class Finding:
    path: str
    line: int
    end_line: int
    priority: int  # 0 = must fix before merge ... 3 = nit
    confidence: float
    category: str
    title: str
    body: str
    suggestion: str = ""
    id: str = ""

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        return {"id": data.pop("id"), **data, "suggestion": self.suggestion or None}


def from_arguments(args: dict[str, Any], lines_of: Any) -> Finding:
    """A Finding from report_finding's arguments; `lines_of(path)` gives the new side's
    lines of that file (None when it has none). Raises BadFinding with what to fix."""
    path = _text(args, "path").strip().removeprefix("./")
    lines = lines_of(path)
    if lines is None:
        raise BadFinding(f"{path!r} is not a file of the reviewed tree; give a path from the diff.")
    line = _int(args, "line")
    end_line = _int(args, "end_line") if args.get("end_line") not in (None, "") else line
    if not 1 <= line <= max(len(lines), 1) or end_line < line or end_line > max(len(lines), 1):
        raise BadFinding(
            f"Lines {line}-{end_line} are not in {path}, which has {len(lines)} lines; "
            "give new-side line numbers as the diff shows them."
        )
    priority = _int(args, "priority")
    if not 0 <= priority <= 3:
        raise BadFinding("`priority` is an integer 0-3 (0 = must fix before merge).")
    confidence = _number(args, "confidence")
    if not 0 <= confidence <= 1:
        raise BadFinding("`confidence` is a number from 0 to 1.")
    category = _text(args, "category").strip().lower()
    if category not in CATEGORIES:
        raise BadFinding(f"`category` is one of {', '.join(CATEGORIES)}.")
    title = _text(args, "title").strip()
    if not title:
        raise BadFinding("`title` is empty; say the problem in a few words.")
    suggestion = args.get("suggestion") or ""
    finding = Finding(
        path, line, end_line, priority, confidence, category, title,
        _text(args, "body").strip(), str(suggestion).strip(),
    )  # fmt: skip
    anchor = lines[line - 1] if lines else ""
    return _with_id(finding, anchor)


def _folded(title: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"\d+", "#", title.lower())).strip()


def fingerprint(path: str, title: str, anchor_text: str) -> str:
    key = "\0".join((path, _folded(title), anchor_text.strip()))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


def _with_id(finding: Finding, anchor: str) -> Finding:
    from dataclasses import replace

    return replace(finding, id=fingerprint(finding.path, finding.title, anchor))


NEAR_LINES = 3  # the same title this close in the same file is the same problem


def dedupe(findings: list[Finding], changed: dict[str, set[int]] | None = None) -> list[Finding]:
    """One finding per problem, most severe first: per fingerprint, and per title in a
    file within NEAR_LINES (a model may report one problem on each line around it). The
    one kept is on a line the change added if any, then the most severe and confident."""
    changed = changed or {}

    def rank(f: Finding) -> tuple[bool, int, float]:
        return (f.line not in changed.get(f.path, ()), f.priority, -f.confidence)

    kept: list[Finding] = []
    for finding in sorted(findings, key=rank):
        same = any(
            k.id == finding.id
            or (
                k.path == finding.path
                and " ".join(k.title.lower().split()) == " ".join(finding.title.lower().split())
                and finding.line <= k.end_line + NEAR_LINES
                and k.line <= finding.end_line + NEAR_LINES
            )
            for k in kept
        )
        if not same:
            kept.append(finding)
    return sorted(kept, key=lambda f: (f.priority, -f.confidence, f.path, f.line))


def _text(args: dict[str, Any], name: str) -> str:
    value = args.get(name)
    if not isinstance(value, str):
        raise BadFinding(f"`{name}` is required, as text.")
    return value


def _int(args: dict[str, Any], name: str) -> int:
    value = args.get(name)
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise BadFinding(f"`{name}` is required, as an integer.") from None
    if number != int(number):
        raise BadFinding(f"`{name}` is an integer, not {value!r}.")
    return int(number)


def _number(args: dict[str, Any], name: str) -> float:
    try:
        return float(args.get(name))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise BadFinding(f"`{name}` is required, as a number from 0 to 1.") from None
