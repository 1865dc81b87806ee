"""What `kiln run` prints: text progress lines and the final result object."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, assert_never

from agent.events import (
    ActionDenied,
    Applied,
    ApprovalRequested,
    ApprovalResolved,
    AssistantMessage,
    CandidatesTried,
    Checkpointed,
    Compacted,
    Event,
    FilesChanged,
    Finished,
    HookRan,
    JobStarted,
    JobStopped,
    ModeChanged,
    ModelChanged,
    Notice,
    PhaseChanged,
    PlanUpdated,
    ReasoningDelta,
    SessionStarted,
    SubagentFinished,
    SubagentStarted,
    TaskShape,
    TaskShaped,
    TestsRan,
    TextDelta,
    ToolCallFinished,
    ToolCallStarted,
    TurnStarted,
    Usage,
    UsageUpdated,
    WindowUsed,
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
    job_started_line,
    job_stopped_line,
    shape_line,
    short_arguments,
    subagent_finished_line,
    subagent_started_line,
    usage_dict,
)
from agent.tools.testdigest import TestDigest, tests_dict

if TYPE_CHECKING:
    from agent.session import Session


def render_text(event: Event) -> str:
    """One line on stderr for the events a person watching a headless run cares about."""
    match event:
        case TurnStarted():
            return f"· step {event.step}"
        case TaskShaped():
            return f"  {shape_line(event)}"
        case PhaseChanged():
            return f"  [{event.phase.value}]"
        case ToolCallStarted():
            return f"  → {event.name} {short_arguments(event.arguments, 80)}".rstrip()
        case ToolCallFinished():
            if event.ok:
                return ""
            first = event.output.strip().splitlines()[0][:160] if event.output.strip() else ""
            return f"    ✗ {event.name}: {first}"
        case TestsRan():
            return f"  tests: {event.passed} passed, {event.failed} failed, {event.errors} errors"
        case FilesChanged():
            return f"  changed: {', '.join(event.paths) or '(nothing)'}"
        case PlanUpdated():
            return "\n".join(f"  {PLAN_MARKS[s.status]} {s.title}" for s in event.steps)
        case HookRan():
            return f"  {hook_line(event)}"
        case ActionDenied():
            return f"  {denied_line(event)}"
        case Notice():  # a BudgetWarning too
            return f"  note: {event.message}"
        case Compacted():
            return f"  {compacted_line(event)}"
        case CandidatesTried():
            return f"  {candidates_line(event)}"
        case Applied():
            return f"  applied: {', '.join(event.paths) or '(nothing)'}"
        case ApprovalRequested():
            return f"  approval: {event.summary}"
        case SubagentStarted():
            return f"  {subagent_started_line(event)}"
        case SubagentFinished():
            return f"  {subagent_finished_line(event)}"
        case JobStarted():
            return f"  {job_started_line(event)}"
        case JobStopped():
            return f"  {job_stopped_line(event)}"
        case Finished():
            evidence = f"\n  evidence: {event.evidence}" if event.evidence else ""
            return f"· {event.status} ({event.stop_reason.value}){evidence}"
        case (
            SessionStarted() | TextDelta() | ReasoningDelta() | AssistantMessage()
            | ApprovalResolved() | WindowUsed() | UsageUpdated() | Checkpointed()
            | ModeChanged() | ModelChanged()
        ):  # fmt: skip
            return ""
        case _:
            assert_never(event)


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
        "evidence": finished.evidence,
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
        "agents": [  # the child agents the run started (the `agent` tool), as each ended
            {"agent_id": e.agent_id, "name": e.name, "status": e.status, "files": list(e.files),
             "steps": e.steps, "usage": usage_dict(e.usage), "cost_usd": e.cost_usd}
            for e in session.events if isinstance(e, SubagentFinished)
        ],
        "jobs": [  # the jobs the model started; `run_ended`: still running at the end
            {"job_id": j.id, "command": j.command, "ended": j.ended_by or "running",
             "exit_code": j.exit_code, "uptime_s": round(j.uptime_s(), 1), "ports": list(j.ports)}
            for j in session.jobs()
        ],
    }  # fmt: skip


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
        "notes": [],
        "agents": [],
        "jobs": [],
        "usage": usage_dict(Usage()),
        "usage_line": "",
        "cost_usd": 0.0,
        "cost_known": True,
        "steps": 0,
        "tool_calls": 0,
        "duration_s": round(duration_s, 3),
    }
