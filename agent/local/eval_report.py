"""What `kiln eval` reports: one record per run, per task and per split, and the table.

Times and steps are medians over a task's runs (one slow run should not hide the usual
case); tokens are medians per run too. A split's "median time per task" is the median
of its tasks' medians.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field

from agent.events import CandidateKind
from agent.local.trial import TrialResult
from sandbox.frozen import frozen

LOOP = "loop"  # a solve with no candidate kept: the model's own steps


@dataclass
class TaskRuns:
    split: str
    task: str
    results: list[TrialResult] = field(default_factory=list)

    @property
    def solved(self) -> int:
        return sum(r.solved for r in self.results)

    def median(self, name: str) -> float:
        return statistics.median(float(getattr(r, name)) for r in self.results)

    def stops(self) -> Counter[str]:
        """Why each run ended, and which strategy's candidate fixed it when kiln kept one
        (`done(variant)` is kiln's own one-token change, `done(rewrite)` the model's)."""
        return Counter(
            (r.stop_reason or r.status) + (f"({r.fixed_by})" if r.fixed_by else "")
            for r in self.results
        )


def run_record(split: str, run: int, r: TrialResult) -> dict[str, object]:
    return {
        "kind": "run", "split": split, "task": r.task, "run": run, "solved": r.solved,
        "status": r.status, "stop_reason": r.stop_reason, "steps": r.steps,
        "tool_calls": r.tool_calls, "wall_s": round(r.wall_s, 2),
        "input_tokens": r.input_tokens, "cached_tokens": r.cached_tokens,
        "output_tokens": r.output_tokens, "tests_restored": r.tests_restored,
        "exit_code": r.exit_code, "fixed_by": r.fixed_by, "diff": r.diff,
    }  # fmt: skip


def task_record(t: TaskRuns) -> dict[str, object]:
    return {
        "kind": "task", "split": t.split, "task": t.task, "solved": t.solved,
        "runs": len(t.results), "median_wall_s": round(t.median("wall_s"), 2),
        "median_steps": t.median("steps"), "median_input_tokens": t.median("input_tokens"),
        "median_cached_tokens": t.median("cached_tokens"),
        "median_output_tokens": t.median("output_tokens"), "stop_reasons": dict(t.stops()),
    }  # fmt: skip


@frozen
class Total:
    split: str
    tasks: int
    task_runs: int
    solved: int
    median_wall_s_per_task: float
    # Of the solved, how many each strategy's kept candidate made (CandidateKind values),
    # and LOOP: those the model's own steps solved.
    solved_by: dict[str, int] = field(default_factory=dict)

    @property
    def solved_share(self) -> float:
        return self.solved / self.task_runs if self.task_runs else 0.0

    def record(self) -> dict[str, object]:
        return {
            "kind": "total", "split": self.split, "tasks": self.tasks,
            "task_runs": self.task_runs, "solved": self.solved,
            "solved_share": round(self.solved_share, 3),
            "median_wall_s_per_task": round(self.median_wall_s_per_task, 2),
            "solved_by": dict(self.solved_by),
        }  # fmt: skip

    def yields(self) -> str:
        """`rewrite 3, variant 5, part_of_rewrite 1, module 0, sampled_edit 0, loop 2`."""
        return ", ".join(f"{how} {n}" for how, n in self.solved_by.items())


def totals(tasks: list[TaskRuns]) -> list[Total]:
    """One total per split, then one over everything when there are several splits."""
    splits = list(dict.fromkeys(t.split for t in tasks))
    groups = [(s, [t for t in tasks if t.split == s]) for s in splits]
    if len(groups) > 1:
        groups.append(("all", tasks))
    return [
        Total(
            split=name,
            tasks=len(group),
            task_runs=sum(len(t.results) for t in group),
            solved=sum(t.solved for t in group),
            median_wall_s_per_task=statistics.median(t.median("wall_s") for t in group),
            solved_by=_solved_by(group),
        )
        for name, group in groups
    ]


def _solved_by(group: list[TaskRuns]) -> dict[str, int]:
    """Every strategy, in CandidateKind's order, with the solves it made (0 too: a
    strategy that made none is a finding), then the loop's."""
    made = Counter(r.fixed_by or LOOP for t in group for r in t.results if r.solved)
    return {how: made[how] for how in [*CandidateKind, LOOP]}


def table(tasks: list[TaskRuns]) -> str:
    header = (
        f"{'task':<28} {'solved':>6} {'time':>6} {'steps':>5}  {'tokens in/cached/out':<22} stops"
    )
    lines = [header]
    for t in tasks:
        tokens = "/".join(
            str(int(t.median(n))) for n in ("input_tokens", "cached_tokens", "output_tokens")
        )
        stops = ", ".join(f"{why} {n}" for why, n in sorted(t.stops().items()))
        lines.append(
            f"{t.split + '/' + t.task:<28} {f'{t.solved}/{len(t.results)}':>6}"
            f" {t.median('wall_s'):>5.0f}s {t.median('steps'):>5.0f}  {tokens:<22} {stops}"
        )
    for total in totals(tasks):
        lines.append(
            f"{total.split}: solved {total.solved}/{total.task_runs} task-runs"
            f" ({total.solved_share:.0%}), median {total.median_wall_s_per_task:.0f}s per task;"
            f" solved by {total.yields()}"
        )
    return "\n".join(lines)
