"""One batch task, run as `kiln run --approval full-auto` runs it: the unit both engines call.

It goes through `agent.headless.run.run_headless` (the same settings, session, sandbox,
limits and result object as `kiln run`) and reads the run's `stream-json` stream as it
goes: the cost so far for the live display, and the final result object. What comes
back is plain data (a record and the patch), small enough to cross from a Ray worker.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import io
import json
import platform
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent.batch.tasks import TaskSpec
from agent.errors import ExitCode, KilnError, UsageError
from sandbox.frozen import frozen

if TYPE_CHECKING:
    from agent.store.db import Store

# Stops that say the machinery failed, not the agent: retried (up to --retries).
INFRA_STOPS = frozenset({"sandbox_error", "model_error", "node_lost"})
# Stops that are errors, not the agent's failures: the machinery, bad input, a bug in kiln.
ERROR_STOPS = INFRA_STOPS | {"config_error", "internal_error"}


@frozen
class BatchOptions:
    """What `kiln batch` sets for every task (a line's own keys win). Plain data for Ray."""

    base_url: str | None = None
    model: str | None = None
    provider: str | None = None
    backend: str | None = None
    max_steps: int | None = None
    timeout: float | None = None
    apply: bool = False
    labels: dict[str, str] = field(default_factory=dict)  # on every container of the batch


@dataclass
class Outcome:
    """A task's result: its results.jsonl record (without the patch path) and its patch."""

    record: dict[str, Any]
    patch: str
    infra: bool  # the machinery failed: worth another attempt

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class StreamTap(io.StringIO):
    """Where the run writes its stream-json lines: keeps the cost so far and the result,
    nothing else (a long batch must not hold every text delta)."""

    def __init__(self, on_cost: Callable[[float], None] | None) -> None:
        super().__init__()
        self.on_cost = on_cost
        self.result: dict[str, Any] | None = None
        self._partial = ""

    def write(self, text: str) -> int:
        lines = (self._partial + text).split("\n")
        self._partial = lines.pop()
        for line in lines:
            if line.startswith('{"type": "usage_updated"') and self.on_cost is not None:
                self.on_cost(json.loads(line).get("cost_usd") or 0.0)
            elif line.startswith('{"type": "result"'):
                self.result = json.loads(line)
        return len(text)


async def execute(
    spec: TaskSpec,
    options: BatchOptions,
    attempt: int,
    *,
    store: Store | None = None,
    on_cost: Callable[[float], None] | None = None,
) -> Outcome:
    """Run one task to its end; a failure the person can cause is an Outcome, not a raise."""
    from agent.headless.output import early_report
    from agent.headless.run import run_headless

    started = time.monotonic()
    scratch = Path(tempfile.mkdtemp(prefix=f"kiln-batch-{spec.id}-"))
    tap = StreamTap(on_cost)
    args = _run_args(spec, options, scratch / "patch")
    try:
        repo = await _checkout(spec, scratch / "repo")
        settings = _settings(spec, options, args, repo)
        if spec.attempts > 1:
            from agent.headless.attempts import run_attempts

            args.attempts = spec.attempts
            await run_attempts(args, repo, settings, out=tap, handle_signals=False)
        else:
            await run_headless(
                args, repo, settings, out=tap, err=io.StringIO(), store=store, handle_signals=False
            )
    except KilnError as exc:  # kiln run's own result object is in the tap when it made one
        if tap.result is None:
            tap.result = early_report("", "config_error", exc.exit_code, exc.message, 0.0)
    finally:
        patch_file = scratch / "patch"
        patch = patch_file.read_text(encoding="utf-8") if patch_file.exists() else ""
        await asyncio.to_thread(shutil.rmtree, scratch, True)
    assert tap.result is not None, "kiln run always ends with its result object"
    return outcome_for(spec, tap.result, patch, attempt, time.monotonic() - started)


def outcome_for(
    spec: TaskSpec, result: dict[str, Any], patch: str, attempt: int, duration_s: float
) -> Outcome:
    stop = str(result["stop_reason"])
    infra = stop in INFRA_STOPS
    if result["exit_code"] == ExitCode.OK:
        status = "solved"
    elif stop in ERROR_STOPS:
        status = "error"
    else:
        status = "failed"
    usage = result.get("usage") or {}
    record = {
        "id": spec.id,
        "status": status,
        "stop_reason": stop,
        "exit_code": result["exit_code"],
        "summary": result.get("summary", ""),
        "tests_before": _tests(result.get("tests_before")),
        "tests_after": _tests(result.get("tests_after")),
        "tokens": {
            "uncached": usage.get("uncached_input_tokens", 0),
            "cached": usage.get("cached_input_tokens", 0),
            "cache_write": usage.get("cache_write_tokens", 0),
            "output": usage.get("output_tokens", 0),
        },
        "cost_usd": result.get("cost_usd"),
        "duration_s": round(duration_s, 3),
        "session_id": result.get("session_id", ""),
        "attempt": attempt,
        "model": result.get("model", ""),
        "node": platform.node(),
    }
    return Outcome(record, patch, infra)


def _tests(digest: dict[str, Any] | None) -> dict[str, Any] | None:
    if digest is None:
        return None
    return {k: digest[k] for k in ("passed", "failed", "errors", "ok")}


def _run_args(spec: TaskSpec, options: BatchOptions, patch_out: Path) -> argparse.Namespace:
    """The namespace `kiln run` would parse for this task: a line's keys over the batch's."""
    model = spec.model or {}
    return argparse.Namespace(
        task=spec.task,
        task_file=None,
        approval="full-auto",
        apply=options.apply,
        patch_out=str(patch_out),
        output_format="stream-json",
        base_url=model.get("base_url") or options.base_url,
        model=model.get("model") or options.model,
        provider=model.get("provider") or options.provider,
        backend=options.backend,
        test_command=spec.tests or None,
        max_steps=spec.max_steps or options.max_steps,
        budget_usd=spec.budget_usd,
        timeout=spec.timeout or options.timeout,
    )


def _settings(spec: TaskSpec, options: BatchOptions, args: argparse.Namespace, repo: Path) -> Any:
    from agent.settings.flags import settings_for

    extra = {"sandbox.image": spec.image or None, "sandbox.setup": list(spec.setup) or None}
    settings = settings_for(args, repo, extra)
    labels = {**options.labels, "kiln.task": spec.id}
    return dataclasses.replace(
        settings, sandbox=dataclasses.replace(settings.sandbox, labels=labels)
    )


async def _checkout(spec: TaskSpec, target: Path) -> Path:
    """The repository to work on: the path itself, or a fresh clone of a URL (or of a path
    at `rev`), so the person's repository is never touched."""
    from agent.settings.repo import find_repo

    if not spec.is_url and not spec.rev:
        return find_repo(spec.repo)
    rev = spec.rev or "HEAD"
    if rev.startswith("-"):  # the TASKS check refuses it too; never let git read an option
        raise UsageError(f"{spec.repo} at {rev}: a rev may not start with '-'.")
    # `--` ends the options, and after the rev it means the rev is a revision, never a path.
    done = await asyncio.to_thread(
        subprocess.run,
        ["git", "clone", "--quiet", "--no-checkout", "--", spec.repo, str(target)],
        capture_output=True, text=True,
    )  # fmt: skip
    if done.returncode == 0:
        done = await asyncio.to_thread(
            subprocess.run,
            ["git", "-C", str(target), "checkout", "--quiet", rev, "--"],
            capture_output=True, text=True,
        )  # fmt: skip
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or ["git failed"])[-1]
        raise UsageError(f"{spec.repo} at {rev} cannot be checked out ({why}).")
    return target
