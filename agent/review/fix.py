"""`kiln review --fix`: the findings become the agent loop's task, run as `kiln run` runs
it (in the sandbox, the tests after each edit). The fix stays in the stored session, and
`kiln apply SESSION` writes it; the review's own output on stdout stays one document."""

from __future__ import annotations

import argparse
from collections.abc import Awaitable
from pathlib import Path
from typing import Protocol, TextIO

from agent.review.formats import PRIORITY_NAMES
from agent.review.reviewer import ReviewResult
from agent.settings.config import Settings


class RunTask(Protocol):
    """`kiln run`'s `run_headless`, handed in by the entry point."""

    def __call__(
        self, args: argparse.Namespace, repo: Path, settings: Settings, *, out: TextIO, err: TextIO
    ) -> Awaitable[int]: ...


def fix_task(result: ReviewResult) -> str:
    lines = [f"A review of {result.target.label} found these problems; fix each one:"]
    for number, f in enumerate(result.findings, 1):
        where = f"{f.path}:{f.line}" + (f"-{f.end_line}" if f.end_line != f.line else "")
        lines.append(f"{number}. [{PRIORITY_NAMES[f.priority]}] {where}: {f.title}. {f.body}")
        if f.suggestion:
            lines.append(f"   Suggested: {f.suggestion}")
    lines.append("Then run the tests.")
    return "\n".join(lines)


async def fix_findings(
    run_task: RunTask, root: Path, settings: Settings, result: ReviewResult, err: TextIO
) -> int:
    run_args = argparse.Namespace(
        task=fix_task(result), task_file=None, approval="auto-edit", apply=False, commit=False,
        patch_out=None, output_format="text", repo=str(root),
    )  # fmt: skip
    err.write("kiln: handing the findings to the agent (kiln apply SESSION writes its fix)\n")
    return await run_task(run_args, root, settings, out=err, err=err)
