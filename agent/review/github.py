"""GitHub Actions: workflow-command annotations on the changed lines (at most ten, the most
severe first) and the whole table in the job summary when `$GITHUB_STEP_SUMMARY` is set."""

from __future__ import annotations

import os
from pathlib import Path

from agent.review.formats import PRIORITY_NAMES, as_markdown
from agent.review.reviewer import ReviewResult

MAX_ANNOTATIONS = 10


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def as_github(result: ReviewResult) -> str:
    lines = []
    for finding in result.findings[:MAX_ANNOTATIONS]:  # already most severe first
        level = "error" if finding.priority <= 1 else "warning"
        title = f"[{PRIORITY_NAMES[finding.priority]}] {finding.title}"
        lines.append(
            f"::{level} file={_property(finding.path)},line={finding.line},"
            f"endLine={finding.end_line},title={_property(title)}::{_data(finding.body or finding.title)}"
        )
    left = len(result.findings) - MAX_ANNOTATIONS
    if left > 0:
        lines.append(f"::notice::{left} more findings are in the job summary.")
    lines.append(
        f"kiln review of {result.target.label}: {result.verdict}, {len(result.findings)} findings"
    )
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        with Path(summary).open("a", encoding="utf-8") as out:
            out.write(as_markdown(result) + "\n")
    return "\n".join(lines)
