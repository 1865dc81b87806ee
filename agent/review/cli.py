"""`kiln review [REV | A..B | --staged | --uncommitted | --base BRANCH]`: the review, its
output in the format asked for, and an exit code a CI job can gate on.

Exit codes: 0 nothing at or above `--fail-on`, 1 something is, 2 usage or configuration,
6 the model failed. `--run-tests` adds the tests' result at the reviewed tree (in the
sandbox); `--fix` then hands the findings to the agent loop as its task.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from agent.errors import ExitCode, UsageError
from agent.settings.repo import find_repo

if TYPE_CHECKING:
    from agent.llm.base import ModelClient
    from agent.review.fix import RunTask
    from agent.review.reviewer import ReviewResult
    from agent.settings.config import Settings

GATES = {"P0": 0, "P1": 1, "P2": 2, "P3": 3}


def gate_of(raw: str | None) -> int | None:
    if raw is None:
        return None
    gate = GATES.get(raw.strip().upper())
    if gate is None:
        raise UsageError(f"--fail-on {raw!r} is not a priority; give P0, P1, P2 or P3.")
    return gate


def main(args: argparse.Namespace, run_task: RunTask | None = None) -> int:
    """`run_task` runs `--fix`'s task as `kiln run` does; the entry point hands it in, so
    the review never imports the headless front end."""
    from agent.settings.flags import settings_for

    root = find_repo(args.repo)
    gate_of(args.fail_on)
    if not 0 <= args.min_confidence <= 1:
        raise UsageError("--min-confidence is a number from 0 to 1, such as 0.5.")
    return asyncio.run(review_command(args, root, settings_for(args, root), run_task=run_task))


async def review_command(
    args: argparse.Namespace,
    root: Path,
    settings: Settings,
    *,
    client: ModelClient | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    run_task: RunTask | None = None,
) -> int:
    """The whole review; `client`, `out` and `err` are there for in-process callers."""
    out, err = out or sys.stdout, err or sys.stderr
    result = await run_review(args, root, settings, client=client, err=err)
    out.write(render(result, args.output_format) + "\n")
    out.flush()
    gate = gate_of(args.fail_on)
    failed = gate is not None and any(f.priority <= gate for f in result.findings)
    if args.fix and result.findings:
        from agent.review.fix import fix_findings

        if run_task is None:
            raise UsageError("--fix needs `kiln run` to hand the findings to; run kiln review.")
        await fix_findings(run_task, root, settings, result, err)
    return ExitCode.TASK_FAILED if failed else ExitCode.OK


async def run_review(
    args: argparse.Namespace,
    root: Path,
    settings: Settings,
    *,
    client: ModelClient | None = None,
    err: TextIO | None = None,
) -> ReviewResult:
    from agent.cost.meter import Meter
    from agent.cost.pricing import pricing_for
    from agent.events import Finished, Reading, RunStatus, SessionStarted, StopReason
    from agent.review.reviewer import ReviewOptions
    from agent.review.runner import TargetSpec, review
    from agent.settings.resolve import open_client, resolve_profile
    from agent.store.db import Store

    err = err or sys.stderr
    spec = TargetSpec(args.rev, args.staged, args.uncommitted, args.base)
    own_client = client is None
    client = client or await open_client(await resolve_profile(settings))
    session_id = os.urandom(6).hex()
    store = Store()
    title = f"review {args.rev or ('--base ' + args.base if args.base else '')}".strip()
    store.record(
        session_id,
        SessionStarted(session_id, str(root), title, client.profile.model, Reading.REVIEW),
    )
    options = ReviewOptions(args.instructions, args.min_confidence, not args.no_verify_findings)

    def progress(line: str) -> None:
        print(f"[review] {line}", file=err, flush=True)

    meter = Meter(pricing_for(client.profile, settings))
    try:
        result = await review(
            root, settings, client, meter, spec, options,
            on_request=functools.partial(store.record_request, session_id),
            progress=progress if args.output_format == "text" else None,
            run_tests=args.run_tests, session_id=session_id,
        )  # fmt: skip
        said = f"{result.verdict}, {len(result.findings)} findings"
        store.record(
            session_id,
            Finished(
                RunStatus.DONE,
                StopReason.DONE,
                said,
                meter.requests,
                0,
                meter.total,
                meter.cost_usd,
            ),
        )  # `kiln sessions list` and `kiln cost` show the review like any session
        return result
    finally:
        store.close()
        if own_client:
            await client.aclose()


def render(result: ReviewResult, fmt: str) -> str:
    from agent.review import formats

    if fmt == "json":
        return formats.as_json(result)
    if fmt == "markdown":
        return formats.as_markdown(result)
    if fmt == "sarif":
        from agent.review.sarif import as_sarif

        return as_sarif(result)
    if fmt == "github":
        from agent.review.github import as_github

        return as_github(result)
    return formats.as_text(result)
