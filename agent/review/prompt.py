"""What the reviewing model is told: the rubric (stable, first), then one chunk of the
change with new-side line numbers; and the short request that checks one finding."""

from __future__ import annotations

from collections.abc import Callable

from agent.review.diffs import FileChange
from agent.review.findings import Finding
from agent.review.target import Target

RUBRIC = """You review a code change in the repository {repo}. Find the problems the change \
introduces, report each with the report_finding tool, then call finish_review.

Report a problem only when all of these hold:
- the change introduced it (not code it left alone);
- it affects correctness, security, performance, tests or maintainability in a way the \
author would fix once told;
- you can point at the new-side lines that cause it, and say what goes wrong without \
guessing at things you cannot see (read the code with the tools when unsure).

Priorities: 0 breaks something and must be fixed before merging, 1 should be fixed, 2 \
could be better, 3 is a nit. Confidence is how sure you are that the problem is real \
(0-1). Lines are the new-side numbers printed at the left of the diff; removed lines have \
none. Each body is one short paragraph; a suggestion is the corrected code, only when \
short. Prefer no finding to a weak one. Report every real problem: nothing caps their \
number. The verdict is "incorrect" when any priority-0 or priority-1 problem remains."""


def system_prompt(repo: str, repo_map: str) -> str:
    parts = [RUBRIC.format(repo=repo)]
    if repo_map:
        parts.append(f"## Repository map (definitions by file, most used first)\n\n{repo_map}")
    return "\n\n".join(parts)


def chunk_message(
    target: Target, body: str, index: int, total: int, instructions: str, elsewhere: list[str]
) -> str:
    what = f"commit {target.revision[:12]} ({target.title})" if target.title else target.label
    lines = [f"Review {what}, part {index} of {total}."]
    lines += target.notes
    if instructions:
        lines.append(f"Focus: {instructions}")
    if elsewhere:
        lines.append(
            "Also changed (shown in other parts, or not line by line): " + "; ".join(elsewhere)
        )
    lines += ["", body, "", "Report each problem with report_finding, then call finish_review."]
    return "\n".join(lines)


VERIFY_SYSTEM = """You check one finding of a code review against the code. Answer with \
the verify_finding tool: real is "yes" only when the problem is real in the code shown, \
and confidence is how sure you are (0-1)."""


def verify_message(finding: Finding, excerpt: str, hunk: str) -> str:
    return "\n".join(
        [
            f"Finding (priority {finding.priority}, {finding.category}) at "
            f"{finding.path}:{finding.line}-{finding.end_line}: {finding.title}",
            finding.body,
            "",
            f"The code of {finding.path} around those lines (new side, numbered):",
            excerpt,
            "",
            "The change there:",
            hunk or "(no change in these lines)",
        ]
    )


FILE_LINES_SHOWN = 400  # a longer file is left to the diff alone


def files_after(paths: list[str], lines_of: Callable[[str], list[str] | None]) -> str:
    """The part's files whole, numbered as after the change (what read_file would show)."""
    shown = []
    for path in paths:
        lines = lines_of(path)
        if lines is None or len(lines) > FILE_LINES_SHOWN:
            continue
        body = "\n".join(f"{n:>5} {line}" for n, line in enumerate(lines, 1))
        shown.append(f"--- {path} after the change ---\n{body}")
    return "\n\n" + "\n\n".join(shown) if shown else ""


def changed_lines(changes: list[FileChange]) -> str:
    """Each rewritten line as before and after, for a small model to check one by one."""
    rows = []
    for change in changes:
        for hunk in change.hunks:
            where = f" (in `{hunk.heading}`)" if hunk.heading else ""
            removed: list[str] = []
            for line in hunk.lines:
                if line.kind == "-":
                    removed.append(line.text.strip())
                elif line.kind == "+":
                    was = f"was `{removed.pop(0)}`, " if removed else "added, "
                    rows.append(
                        f"- {change.path} line {line.new_number}{where}: {was}now "
                        f"`{line.text.strip()}`"
                    )
                else:
                    rows += [f"- {change.path}{where}: removed `{text}`" for text in removed]
                    removed = []
            rows += [f"- {change.path}{where}: removed `{text}`" for text in removed]
    if not rows:
        return ""
    return (
        "\n\nThe lines the change rewrote. For each, does the function still do what its name "
        "and docstring say? If a line makes it wrong, report a bug with priority 0 on that "
        "line:\n" + "\n".join(rows[:60])
    )
