"""`kiln batch TASKS --out DIR`: many tasks, unattended, in parallel, resumable.

Each task runs like `kiln run --approval full-auto` in its own sandbox and session; the
local engine runs `--jobs N` at once on this machine, the Ray engine one Ray task per
batch task across a cluster. Every bad line of TASKS is reported before anything starts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import TextIO

from agent.batch.driver import Driver, Engine
from agent.batch.execute import BatchOptions
from agent.batch.progress import Progress
from agent.batch.results import ResultsDir
from agent.batch.summary import records_of, summarize, table
from agent.batch.tasks import TaskSpec, load_tasks
from agent.errors import UsageError


def main(args: argparse.Namespace) -> int:
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs should be 1 or more.")
    if args.retries < 0:
        raise UsageError("--retries should be 0 or more.")
    if args.engine == "local" and args.address:
        raise UsageError("--address is for --engine ray; leave it out for the local engine.")
    tasks = load_tasks(Path(args.tasks))
    results = ResultsDir(Path(args.out))
    try:
        return asyncio.run(run_batch(args, tasks, results, sys.stdout, sys.stderr))
    finally:
        results.close()


async def run_batch(
    args: argparse.Namespace,
    tasks: list[TaskSpec],
    results: ResultsDir,
    out: TextIO,
    err: TextIO,
) -> int:
    options = BatchOptions(
        base_url=args.base_url,
        model=args.model,
        provider=args.provider,
        backend=args.backend,
        max_steps=args.max_steps,
        timeout=args.timeout,
        apply=args.apply,
        labels={"kiln.batch": str(results.root)},
    )
    engine = _engine(args, options)
    json_out = args.output_format == "json"
    progress = Progress(err, out, json_lines=json_out, budget_usd=args.budget_usd or 0.0)
    driver = Driver(
        results, engine, progress, retries=args.retries, budget_usd=args.budget_usd or 0.0, err=err
    )
    ticker = asyncio.ensure_future(_tick(progress))
    try:
        batch = await driver.run(tasks)
    finally:
        ticker.cancel()
        progress.end()
        await engine.close()
    results.write_preds()
    summary = summarize(batch, results, engine.name)
    if json_out:
        out.write(json.dumps(summary) + "\n")
    else:
        out.write(table(summary, records_of(batch, results)) + "\n")
    out.flush()
    return int(summary["exit_code"])


def _engine(args: argparse.Namespace, options: BatchOptions) -> Engine:
    if args.engine == "ray":
        from agent.batch.ray_engine import RayEngine

        return RayEngine(options, address=args.address, jobs=args.jobs, retries=args.retries)
    from agent.batch.local import LocalEngine

    return LocalEngine(options, args.jobs or 1)


async def _tick(progress: Progress) -> None:
    """The ETA and the clock move even while no task ends."""
    while True:
        await asyncio.sleep(1.0)
        progress.redraw()
