"""What `kiln run` prints: text progress lines and the final result object."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agent.events import (
    ActionDenied,
    Applied,
    ApprovalRequested,
    CandidatesTried,
    Compacted,
    Event,
    FilesChanged,
    Finished,
    HookRan,
    Notice,
    PhaseChanged,
    PlanUpdated,
    TaskShape,
    TaskShaped,
    TestsRan,
    ToolCallFinished,
    ToolCallStarted,
    TurnStarted,
    Usage,
)
from agent.present import (
    PLAN_MARKS,
    candidates_line,
    changed_paths,
    compacted_line,
    denied_line,
    diff_stats,
    format_usage,
    hook_line,
    shape_line,
    short_arguments,
)
from agent.tools.testdigest import TestDigest

if TYPE_CHECKING:
    from agent.session import Session


def render_text(event: Event) -> str:
    """One line on stderr for the events a person watching a headless run cares about."""
    if isinstance(event, TurnStarted):
        return f"· step {event.step}"
    if isinstance(event, TaskShaped):
        return f"  {shape_line(event)}"
    if isinstance(event, PhaseChanged):
        return f"  [{event.phase.value}]"
    if isinstance(event, ToolCallStarted):
        return f"  → {event.name} {short_arguments(event.arguments, 80)}".rstrip()
    if isinstance(event, ToolCallFinished) and not event.ok:
        first = event.output.strip().splitlines()[0][:160] if event.output.strip() else ""
        return f"    ✗ {event.name}: {first}"
    if isinstance(event, TestsRan):
        return f"  tests: {event.passed} passed, {event.failed} failed, {event.errors} errors"
    if isinstance(event, FilesChanged):
        return f"  changed: {', '.join(event.paths) or '(nothing)'}"
    if isinstance(event, PlanUpdated):
        return "\n".join(f"  {PLAN_MARKS[s.status]} {s.title}" for s in event.steps)
    if isinstance(event, HookRan):
        return f"  {hook_line(event)}"
    if isinstance(event, ActionDenied):
        return f"  {denied_line(event)}"
    if isinstance(event, Notice):
        return f"  note: {event.message}"
    if isinstance(event, Compacted):
        return f"  {compacted_line(event)}"
    if isinstance(event, CandidatesTried):
        return f"  {candidates_line(event)}"
    if isinstance(event, Applied):
        return f"  applied: {', '.join(event.paths) or '(nothing)'}"
    if isinstance(event, ApprovalRequested):
        return f"  approval: {event.summary}"
    if isinstance(event, Finished):
        return f"· {event.status} ({event.stop_reason.value})"
    return ""


def tests_dict(report: TestDigest | None) -> dict[str, Any] | None:
    if report is None:
        return None
    return {
        "command": report.command,
        "passed": report.passed,
        "failed": report.failed,
        "errors": report.errors,
        "exit_code": report.exit_code,
        "ok": report.ok,
        "failing": list(report.failing),
    }


def final_report(
    session: Session,
    finished: Finished,
    diff: str,
    applied: list[str],
    tests_after: TestDigest | None,
    exit_code: int,
    duration_s: float,
    shape: TaskShape = TaskShape.CHANGE,
) -> dict[str, Any]:
    usage = finished.usage
    return {
        "type": "result",
        "status": finished.status,
        "stop_reason": finished.stop_reason.value,
        "exit_code": exit_code,
        "summary": finished.summary,
        "session_id": session.session_id,
        "model": session.profile.model,
        "tests_before": tests_dict(session.tests_before),
        "tests_after": tests_dict(tests_after),
        "shape": shape.value,
        "evidence": evidence(shape, session.tests_before, tests_after, bool(diff.strip())),
        "files_changed": changed_paths(diff),
        "diff_stats": diff_stats(diff),
        "applied": applied,
        "usage": usage_dict(usage),
        "usage_line": format_usage(usage, finished.cost_usd),
        "cost_usd": finished.cost_usd,  # null when a model's price is unknown
        "cost_known": finished.cost_usd is not None,
        "steps": finished.steps,
        "tool_calls": finished.tool_calls,
        "duration_s": round(duration_s, 3),
    }


def evidence(
    shape: TaskShape, before: TestDigest | None, after: TestDigest | None, changed: bool
) -> str:
    """What shows the result is right, in a few words: tests that passed before the run
    and pass after it show nothing about the change, and the result says so."""
    if shape is TaskShape.QUESTION:
        return "an answer: a question needs no tests"
    if not changed:
        return "nothing changed"
    if after is None:
        return "no tests ran"
    if not after.ok:
        return "the tests fail"
    if before is not None and before.ok:
        return "tests passed before the run too"
    if before is not None:
        return "tests failed before the run and pass after it"
    return "tests pass after the run"


def usage_dict(usage: Usage) -> dict[str, int]:
    return {
        "uncached_input_tokens": usage.uncached_input,
        "cached_input_tokens": usage.cached_input,
        "cache_write_tokens": usage.cache_write,
        "output_tokens": usage.output,
    }


def early_report(
    session_id: str, stop_reason: str, exit_code: int, summary: str, duration_s: float
) -> dict[str, Any]:
    """The result object of a run that ended while starting: the same keys, nothing done."""
    status = "cancelled" if stop_reason == "cancelled" else "error"
    return {
        "type": "result",
        "status": status,
        "stop_reason": stop_reason,
        "exit_code": exit_code,
        "summary": summary,
        "session_id": session_id,
        "model": "",
        "tests_before": None,
        "tests_after": None,
        "shape": "",
        "evidence": "",
        "files_changed": [],
        "diff_stats": diff_stats(""),
        "applied": [],
        "not_applied": None,
        "denied": [],
        "usage": usage_dict(Usage()),
        "usage_line": "",
        "cost_usd": 0.0,
        "cost_known": True,
        "steps": 0,
        "tool_calls": 0,
        "duration_s": round(duration_s, 3),
    }
