"""`kiln eval DIR`: every task of an evaluation set, N times each, judged by its own tests.

DIR is one split (a folder of task folders, each with a `task.toml` or laid out as an
Exercism exercise, see `exercism.py`) or a parent of splits (`bench/eval/` holds `tune/`
and `heldout/`). `--only`, `--exclude-from` and `--sample N --seed S` choose among them,
the same way for `bench/compare_agents.py`. Each run is `run_trial`: `kiln run`
as a subprocess on a fresh git copy, with the same model flags and the same default
model resolution as `kiln run` itself, then the task's test command on the result with
the test files restored. The table (or JSON lines) comes from `eval_report`.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import TextIO

from agent.errors import UsageError
from agent.local.bundled import BundledTask, tasks_in
from agent.local.eval_report import TaskRuns, run_record, table, task_record, totals
from agent.local.exercism import exercises_in
from agent.local.measuring import one_measurement
from agent.local.trial import run_trial

DEFAULT_TIMEOUT_S = 600.0


def find_tasks(directory: Path) -> list[tuple[str, BundledTask]]:
    """(split, task) for every task under `directory`, a split or a parent of splits."""
    if not directory.is_dir():
        raise UsageError(f"{directory} is not a folder; give a folder of tasks (e.g. bench/eval).")
    own = _tasks_and_exercises(directory)
    if own:
        return [(directory.name, task) for task in own]
    found = [
        (split.name, task)
        for split in sorted(p for p in directory.iterdir() if p.is_dir())
        for task in _tasks_and_exercises(split)
    ]
    if not found:
        raise UsageError(
            f"{directory} holds no tasks: each task is a folder with a task.toml or an "
            "Exercism exercise (.docs/instructions.md and a *_test.py), in DIR itself or "
            "one level down (DIR/tune/NAME)."
        )
    return found


def _tasks_and_exercises(directory: Path) -> list[BundledTask]:
    return sorted(tasks_in(directory) + exercises_in(directory), key=lambda task: task.name)


def choose_tasks(
    found: list[tuple[str, BundledTask]],
    *,
    only: str | None = None,
    exclude_from: str | None = None,
    sample: int | None = None,
    seed: int = 0,
) -> list[tuple[str, BundledTask]]:
    """The tasks named by `only` (comma-separated), less those whose names are tasks in
    `exclude_from`, then `sample` of each split, the same ones for the same seed."""
    chosen = found
    if only:
        names = {name.strip() for name in only.split(",") if name.strip()}
        unknown = sorted(names - {task.name for _, task in found})
        if unknown:
            raise UsageError(f"There is no task named {', '.join(unknown)} in the folder given.")
        chosen = [(split, task) for split, task in chosen if task.name in names]
    if exclude_from:
        taken = {task.name for _, task in find_tasks(Path(exclude_from))}
        chosen = [(split, task) for split, task in chosen if task.name not in taken]
    if sample is not None:
        if sample < 1:
            raise UsageError("--sample must be 1 or more.")
        chosen = _sample_each_split(chosen, sample, seed)
    if not chosen:
        raise UsageError("No task is left to run after --only, --exclude-from and --sample.")
    return chosen


def _sample_each_split(
    found: list[tuple[str, BundledTask]], n: int, seed: int
) -> list[tuple[str, BundledTask]]:
    # One generator per split, seeded alike: a split's sample does not depend on the others.
    picked: list[tuple[str, BundledTask]] = []
    for split in dict.fromkeys(s for s, _ in found):
        names = sorted(task.name for s, task in found if s == split)
        keep = set(random.Random(seed).sample(names, min(n, len(names))))
        picked += [(s, task) for s, task in found if s == split and task.name in keep]
    return picked


def chosen_tasks(args: argparse.Namespace) -> list[tuple[str, BundledTask]]:
    """The tasks of `args.dir` that `--only`, `--exclude-from`, `--sample` and `--seed`
    choose (the flags of `kiln eval` and of `bench/compare_agents.py`)."""
    return choose_tasks(
        find_tasks(Path(args.dir)),
        only=args.only,
        exclude_from=args.exclude_from,
        sample=args.sample,
        seed=args.seed,
    )


def model_args(args: argparse.Namespace) -> tuple[str, ...]:
    """The flags `kiln run` gets, only those given: otherwise it resolves the model itself."""
    pairs = [
        ("--base-url", args.base_url),
        ("--model", args.model),
        ("--provider", args.provider),
        ("--backend", args.backend),
    ]
    return tuple(part for flag, value in pairs if value for part in (flag, str(value)))


def main(args: argparse.Namespace) -> int:
    if args.runs < 1:
        raise UsageError("--runs must be 1 or more.")
    tasks = chosen_tasks(args)
    extra = model_args(args)
    out: TextIO | None = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115
    try:
        with one_measurement():
            results = [
                _run_task(split, task, args.runs, extra, args.timeout, args.json, out)
                for split, task in tasks
            ]
        records = [task_record(r) for r in results] + [t.record() for t in totals(results)]
        for record in records:
            _emit(record, args.json, out)
    finally:
        if out is not None:
            out.close()
    if not args.json:
        print(table(results))
    return 0


def _run_task(
    split: str,
    task: BundledTask,
    runs: int,
    extra: tuple[str, ...],
    timeout_s: float | None,
    as_json: bool,
    out: TextIO | None,
) -> TaskRuns:
    done = TaskRuns(split, task.name)
    for n in range(1, runs + 1):
        result = run_trial(task, extra_args=extra, timeout_s=timeout_s)
        done.results.append(result)
        record = run_record(split, n, result)
        _emit(record, as_json, out)
        if not as_json:  # progress, so a long evaluation is not silent
            verdict = "solved" if result.solved else "failed"
            print(f"{split}/{task.name} run {n}/{runs}: {verdict} in {result.wall_s:.0f}s "
                  f"({result.stop_reason or result.status})", file=sys.stderr, flush=True)  # fmt: skip
    return done


def _emit(record: dict[str, object], as_json: bool, out: TextIO | None) -> None:
    line = json.dumps(record)
    if as_json:
        print(line, flush=True)
    if out is not None:
        out.write(line + "\n")
        out.flush()  # each run is kept even if a later one is interrupted
