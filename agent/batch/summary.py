"""The end of `kiln batch`: the summary table (or one JSON object) and the exit code.

Exit 0 when every task is finished and solved (done, its tests passing), 1 when any task
failed, errored or was not started (the budget), 130 when interrupted.
"""

from __future__ import annotations

from typing import Any

from agent.batch.driver import BatchRun
from agent.batch.results import ResultsDir
from agent.errors import ExitCode
from agent.present import cost_text


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (p50, p95) of durations; 0 with none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * share // 1))  # ceil(n * share), at least the first
    return ordered[int(rank) - 1]


def records_of(batch: BatchRun, results: ResultsDir) -> list[dict[str, Any]]:
    """The finished tasks of TASKS as it is now (DIR may hold ids since taken out of it)."""
    return [results.records[i] for i in batch.ids if i in results.records]


def summarize(batch: BatchRun, results: ResultsDir, engine: str) -> dict[str, Any]:
    """Over every finished task of the batch, this run's and earlier runs' alike."""
    records = records_of(batch, results)
    counts = {
        status: sum(r["status"] == status for r in records)
        for status in ("solved", "failed", "error")
    }
    durations = [float(r["duration_s"]) for r in records]
    costs = [r.get("cost_usd") for r in records]
    known = [c for c in costs if c is not None]
    return {
        "type": "summary",
        "engine": engine,
        "tasks": batch.total,
        "finished": len(records),
        "finished_before": batch.skipped,
        **counts,
        "not_started": batch.total - len(records),
        "retried": batch.retried,
        "interrupted": batch.interrupted,
        "budget_spent": batch.budget_spent,
        "cost_usd": sum(known) if len(known) == len(costs) else None,
        "p50_duration_s": round(percentile(durations, 0.5), 3),
        "p95_duration_s": round(percentile(durations, 0.95), 3),
        "results": str(results.results_path),
        "preds": str(results.root / "preds.json"),
        "exit_code": exit_code(batch, counts, len(records)),
    }


def exit_code(batch: BatchRun, counts: dict[str, int], finished: int) -> int:
    if batch.interrupted:
        return ExitCode.INTERRUPTED
    if finished == batch.total and counts["solved"] == finished:
        return ExitCode.OK
    return ExitCode.TASK_FAILED


def table(summary: dict[str, Any], records: list[dict[str, Any]]) -> str:
    rows = [
        ("solved", str(summary["solved"])),
        ("failed", str(summary["failed"])),
        ("errors", str(summary["error"])),
        ("not run", str(summary["not_started"])),
        ("total cost", cost_text(summary["cost_usd"], 0.0)),
        (
            "duration",
            f"p50 {summary['p50_duration_s']:.1f}s · p95 {summary['p95_duration_s']:.1f}s",
        ),
    ]
    width = max(len(name) for name, _ in rows)
    lines = [
        f"kiln batch ({summary['engine']}): {summary['finished']} of {summary['tasks']} tasks finished"
    ]
    lines += [f"  {name:<{width}}  {value}" for name, value in rows]
    unsolved = [r for r in records if r["status"] != "solved"]
    for record in unsolved[:20]:
        lines.append(
            f"  {record['status']:<6} {record['id']}: {record['stop_reason']}; {record['summary']}"
        )
    if len(unsolved) > 20:
        lines.append(f"  … and {len(unsolved) - 20} more in results.jsonl")
    if summary["budget_spent"]:
        lines.append(
            "  the batch budget is spent, so tasks were left unstarted; rerun with a larger "
            "--budget-usd to run them"
        )
    if summary["interrupted"]:
        lines.append("  interrupted: run the same command again to finish the rest")
    lines.append(f"  results: {summary['results']} · predictions: {summary['preds']}")
    return "\n".join(lines)
