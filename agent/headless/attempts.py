"""`kiln run --attempts N`: N independent attempts at one task, in N sandboxes, as many at
once as `[agents] max_parallel` allows (one for the embedded model, whose server answers
one request at a time), the first at the model's own temperature and each other one
sampling (`candidate_temperature`, a seed of its own per request).

Each attempt is a whole `kiln run` (`run_headless`, its own session and sandbox, stored as
a session of its own). Once every attempt has finished, the one kept is the one with
evidence (`done`, agent/run/evidence.py), then the smaller diff, then fewer steps; only
its diff is applied (with --apply, as `kiln run` applies: flags, hooks, the journal), the
others' sessions close with their diffs kept in the store. The result is the kept
attempt's, with `attempts`: every attempt's outcome, tokens and cost, and the total.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import dataclasses
import io
import json
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from agent.errors import ExitCode, KilnError
from agent.headless.run import run_headless
from agent.present import escape_controls, lines_changed
from agent.settings.config import Settings

if TYPE_CHECKING:
    from agent.events import Finished
    from agent.session import Session
    from agent.session.baseline import SharedBaselines
    from sandbox.launch import EarlyLaunch


@dataclasses.dataclass
class Attempt:
    number: int
    status: str = "error"
    steps: int = 0
    diff_size: int = 0  # lines added and removed
    diff: str = ""
    result: dict[str, Any] | None = None
    code: int = int(ExitCode.TASK_FAILED)

    def key(self) -> tuple[int, int, int, int]:
        from agent.run.stops import attempt_rank  # not at the start: it loads the events

        return (attempt_rank(self.status), self.diff_size if self.diff_size else 10**9,
                self.steps, self.number)  # fmt: skip


class Barrier:
    """Every attempt reports once it finished (or failed to start); each then learns
    whether it is the one kept."""

    def __init__(self, attempts: list[Attempt]) -> None:
        self.attempts = attempts
        self.waiting = len(attempts)
        self.all_in = asyncio.Event()
        self.kept: Attempt | None = None

    def report(self, attempt: Attempt) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.kept = min(self.attempts, key=Attempt.key)
            self.all_in.set()

    async def is_kept(self, attempt: Attempt) -> bool:
        await self.all_in.wait()
        return attempt is self.kept


def run_main(
    args: argparse.Namespace, repo: Path, settings: Settings, early: EarlyLaunch | None
) -> int:
    """`kiln run`, prepared (agent/headless/start.py): one run, or with `--attempts N`
    several, the one with evidence kept. `early`: the one run's sandbox, already asked for."""
    if getattr(args, "attempts", 1) > 1:
        return asyncio.run(run_attempts(args, repo, settings))
    return asyncio.run(run_headless(args, repo, settings, early=early))


async def run_attempts(
    args: argparse.Namespace,
    repo: Path,
    settings: Settings,
    out: TextIO | None = None,
    *,
    handle_signals: bool = True,
) -> int:
    """The whole `kiln run --attempts N`; returns the kept attempt's exit code. The kept
    attempt's diff goes to `--patch-out` when given. `handle_signals=False`: Ctrl+C is the
    caller's (`kiln batch` cancels the task instead)."""
    out = out or sys.stdout
    n = args.attempts
    limit = asyncio.Semaphore(max(1, min(n, settings.parallel_attempts)))
    attempts = [Attempt(k) for k in range(1, n + 1)]
    barrier = Barrier(attempts)
    baselines: SharedBaselines = {}  # every attempt starts from the same tree: one baseline
    jobs = [
        asyncio.ensure_future(_one(a, args, repo, settings, limit, barrier, baselines))
        for a in attempts
    ]
    loop = asyncio.get_running_loop()
    signals = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP) if handle_signals else ()
    with contextlib.suppress(NotImplementedError, RuntimeError):
        for signum in signals:
            loop.add_signal_handler(signum, lambda: [job.cancel() for job in jobs])
    try:
        await asyncio.gather(*jobs, return_exceptions=True)
    except asyncio.CancelledError:  # the caller's cancel (kiln batch): every attempt's too
        for job in jobs:
            job.cancel()
        await asyncio.gather(*jobs, return_exceptions=True)
        raise
    finally:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            for signum in signals:
                loop.remove_signal_handler(signum)
    if any(job.cancelled() for job in jobs):
        print("kiln: interrupted; no attempt was applied.", file=sys.stderr)
        return int(ExitCode.INTERRUPTED)
    kept = barrier.kept or attempts[0]
    if kept.result is None:
        raise KilnError("No attempt produced a result; run it once without --attempts to see why.")
    report = {**kept.result, "attempt": kept.number, "attempts": [_summary(a) for a in attempts]}
    report["cost_usd"] = _total_cost(attempts)
    if args.patch_out:
        Path(args.patch_out).write_text(kept.diff, encoding="utf-8")
        report["patch_out"] = args.patch_out
    if args.output_format == "text":
        out.write(escape_controls(_text(report)) + "\n")
    else:
        out.write(json.dumps(report) + "\n")
    out.flush()
    return kept.code


async def _one(
    attempt: Attempt,
    args: argparse.Namespace,
    repo: Path,
    settings: Settings,
    limit: asyncio.Semaphore,
    barrier: Barrier,
    baselines: SharedBaselines,
) -> None:
    held = False
    reported = False

    async def chosen(session: Session, finished: Finished) -> bool:
        nonlocal held, reported
        diff = attempt.diff = await session.diff()
        attempt.status, attempt.steps = str(finished.status), finished.steps
        attempt.diff_size = lines_changed(diff)
        if held:  # its sandbox stays open while the others finish; the slot is theirs
            limit.release()
            held = False
        reported = True
        barrier.report(attempt)
        return await barrier.is_kept(attempt)

    own = copy.copy(args)
    own.output_format = "json"
    own.patch_out = None
    sink = io.StringIO()
    try:
        await limit.acquire()
        held = True
        attempt.code = await run_headless(
            own, repo, _sampling(settings, attempt.number), out=sink, err=_Prefixed(attempt.number),
            handle_signals=False, chosen=chosen, baselines=baselines,
        )  # fmt: skip
    except KilnError as exc:
        print(f"kiln: attempt {attempt.number}: {exc.message}", file=sys.stderr)
        attempt.code = int(exc.exit_code)
    finally:
        if held:
            limit.release()
        if not reported:
            barrier.report(attempt)
    lines = sink.getvalue().strip().splitlines()
    attempt.result = json.loads(lines[-1]) if lines else None


def _sampling(settings: Settings, number: int) -> Settings:
    """The first attempt as configured; each other one samples."""
    main = settings.main_model
    if number == 1 or main is None:
        return settings
    hotter = dataclasses.replace(
        main, temperature=max(main.temperature, main.candidate_temperature)
    )
    return dataclasses.replace(settings, models={**settings.models, "main": hotter})


def _summary(attempt: Attempt) -> dict[str, Any]:
    result = attempt.result or {}
    return {
        "attempt": attempt.number,
        "status": result.get("status", attempt.status),
        "stop_reason": result.get("stop_reason", ""),
        "exit_code": attempt.code,
        "session_id": result.get("session_id", ""),
        "files_changed": result.get("files_changed", []),
        "diff_lines": attempt.diff_size,
        "steps": result.get("steps", 0),
        "usage": result.get("usage"),
        "cost_usd": result.get("cost_usd"),
        "duration_s": result.get("duration_s"),
        "evidence": result.get("evidence", ""),
    }


def _total_cost(attempts: list[Attempt]) -> float | None:
    costs = [(a.result or {}).get("cost_usd") for a in attempts]
    return None if any(c is None for c in costs) else round(sum(costs), 6)  # type: ignore[arg-type]


def _text(report: dict[str, Any]) -> str:
    lines = [
        f"attempt {a['attempt']}: {a['status']} ({a['stop_reason']}), {a['diff_lines']} lines "
        f"changed, {a['steps']} steps"
        for a in report["attempts"]
    ]
    kept = f"kept attempt {report['attempt']}: {report['status']}"
    return "\n".join([*lines, kept, report.get("summary", "")])


class _Prefixed(io.StringIO):
    """An attempt's stderr lines, each named by its attempt."""

    def __init__(self, number: int) -> None:
        super().__init__()
        self.number = number
        self._partial = ""

    def write(self, text: str) -> int:
        lines = (self._partial + text).split("\n")
        self._partial = lines.pop()
        for line in lines:
            print(f"[attempt {self.number}] {line}", file=sys.stderr)
        return len(text)
