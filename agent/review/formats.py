"""A review's result for people and programs: text, markdown, json (sarif.py and
github.py hold the two CI formats)."""

from __future__ import annotations

import json
from typing import Any

from agent.present import escape_controls, format_usage, usage_dict
from agent.review.findings import Finding
from agent.review.reviewer import ReviewResult

PRIORITY_NAMES = ("P0", "P1", "P2", "P3")


def as_dict(result: ReviewResult) -> dict[str, Any]:
    return {
        "revision": result.target.revision,
        "target": result.target.label,
        "verdict": result.verdict,
        "summary": result.summary,
        "findings": [f.to_dict() for f in result.findings],
        "notes": result.notes,
        "tests": result.tests,
        "usage": usage_dict(result.usage),
        "cost_usd": result.cost_usd,
    }


def as_json(result: ReviewResult) -> str:
    return json.dumps(as_dict(result), indent=2)


def _where(finding: Finding) -> str:
    lines = (
        f"{finding.line}"
        if finding.end_line == finding.line
        else f"{finding.line}-{finding.end_line}"
    )
    return f"{finding.path}:{lines}"


def _tests_line(tests: dict[str, Any] | None) -> str:
    if not tests:
        return ""
    state = "pass" if tests.get("ok") else "fail"
    return (
        f"tests ({tests.get('command')}): {state}, {tests.get('passed', 0)} passed, "
        f"{tests.get('failed', 0)} failed, {tests.get('errors', 0)} errors"
    )


def as_text(result: ReviewResult) -> str:
    target = result.target
    head = f"review of {target.label}" + (f" ({target.title})" if target.title else "")
    lines = [f"{head}: {result.verdict}, {len(result.findings)} findings"]
    if result.summary:
        lines.append(result.summary)
    for finding in result.findings:
        lines.append("")
        lines.append(
            f"[{PRIORITY_NAMES[finding.priority]}] {_where(finding)} {finding.title} "
            f"({finding.category}, confidence {finding.confidence:.2f}, id {finding.id})"
        )
        if finding.body:
            lines.append(f"    {finding.body}")
        if finding.suggestion:
            lines += ["    suggestion:", *(f"      {s}" for s in finding.suggestion.splitlines())]
    tail = [t for t in (_tests_line(result.tests), *result.notes) if t]
    if tail:
        lines += ["", *tail]
    lines.append(f"usage: {format_usage(result.usage, result.cost_usd)}")
    # Titles, bodies and commit subjects are the model's and the repository's words.
    return escape_controls("\n".join(lines))


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def as_markdown(result: ReviewResult) -> str:
    target = result.target
    verdict = "✅ correct" if result.verdict == "correct" else "❌ incorrect"
    lines = [f"## kiln review of `{target.label}`: {verdict}", ""]
    if result.summary:
        lines += [result.summary, ""]
    if result.findings:
        lines += ["| priority | where | finding | category | confidence |", "|---|---|---|---|---|"]
        for f in result.findings:
            lines.append(
                f"| {PRIORITY_NAMES[f.priority]} | `{_where(f)}` | **{_cell(f.title)}**: "
                f"{_cell(f.body)} | {f.category} | {f.confidence:.2f} |"
            )
    else:
        lines.append("No findings.")
    tail = [t for t in (_tests_line(result.tests), *result.notes) if t]
    lines += ["", *(f"- {t}" for t in tail)] if tail else []
    lines += ["", f"_{format_usage(result.usage, result.cost_usd)}_"]
    return escape_controls("\n".join(lines))
