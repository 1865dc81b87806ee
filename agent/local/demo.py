"""The README's quick start: kiln fixes a bundled bug, with the local model if nothing else.

    python -m agent.local.demo [TASK ...]     (what `bash .ci/demo` runs after set-up)

When no model is configured, the embedded one is installed first (`kiln local install`).
Each task runs on a fresh temporary git copy; the diff kiln applied and the independent
test verdict are printed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from agent import local
from agent.errors import KilnError
from agent.local.bundled import BundledTask, bundled_task, bundled_tasks
from agent.local.trial import TrialResult, run_trial, summary
from agent.settings.config import load_settings

DEFAULT_TASK = "temperature"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agent.local.demo")
    parser.add_argument("tasks", nargs="*", help=f"bundled tasks (default: {DEFAULT_TASK})")
    parser.add_argument("--all", action="store_true", help="every bundled task")
    args = parser.parse_args(argv)
    try:
        names = [t.name for t in bundled_tasks()] if args.all else args.tasks or [DEFAULT_TASK]
        tasks = [bundled_task(name) for name in names]
        _ensure_a_model()
        results = [_run_one(task) for task in tasks]
    except KilnError as exc:
        print(f"kiln: {exc.message}", file=sys.stderr)
        return exc.exit_code
    if len(results) > 1:
        print(summary(results))
    return 0 if all(r.solved for r in results) else 1


def _ensure_a_model() -> None:
    settings = load_settings(Path.cwd())
    if settings.main_model is not None or local.is_installed():
        return
    print("No model is configured: installing the embedded local model first.", flush=True)
    from agent.local.cli import main as local_main

    local_main(argparse.Namespace(local_command="install", model=local.DEFAULT_MODEL))


def _run_one(task: BundledTask) -> TrialResult:
    print(f"\n== {task.name}: {task.title}\n$ kiln run {task.prompt!r}", flush=True)
    result = run_trial(task)
    if result.stderr_tail and not result.solved:
        print(result.stderr_tail)
    print(result.diff.rstrip() or "(kiln changed nothing)")
    print(result.line(), flush=True)
    return result


if __name__ == "__main__":
    sys.exit(main())
