"""Tools that steer the loop rather than touch files: update_plan and finish."""

from __future__ import annotations

from typing import Any

from agent.events import PlanStatus, PlanStep
from agent.tools.base import ToolContext, ToolFailure, ToolResult, spec_only, tool

_STATUSES = ", ".join(s.value for s in PlanStatus)


@tool(
    "update_plan",
    "Write or revise your plan: the whole list of steps, each pending, in_progress or done.",
    {
        "steps": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "title": {"type": "string"},
                    "status": {"type": "string", "enum": [s.value for s in PlanStatus]},
                },
                "required": ["title", "status"],
            },
        }
    },
    ["steps"],
)
async def update_plan(ctx: ToolContext, args: dict[str, Any]) -> ToolResult:
    raw = args.get("steps")
    if not isinstance(raw, list) or not raw:
        raise ToolFailure("`steps` must be a non-empty list of {title, status} objects.")
    steps = []
    for number, item in enumerate(raw, 1):
        if isinstance(item, str):
            item = {"title": item, "status": "pending"}
        if not isinstance(item, dict) or not str(item.get("title", "")).strip():
            raise ToolFailure(f"step {number} needs a non-empty `title`.")
        status = str(item.get("status", "pending")).strip().lower().replace(" ", "_")
        if status not in {s.value for s in PlanStatus}:
            raise ToolFailure(f"step {number} has status {status!r}; use one of {_STATUSES}.")
        steps.append(PlanStep(str(item["title"]).strip(), PlanStatus(status)))
    done = sum(step.status is PlanStatus.DONE for step in steps)
    return ToolResult(True, f"Plan updated ({done}/{len(steps)} done).", plan=tuple(steps))


def finish_summary(args: dict[str, Any]) -> str:
    return str(args.get("summary") or "").strip() or "(no summary given)"


# The loop answers `finish` itself (agent/run/checks.py: it runs the tests first), so the
# tool is only its schema: what the model is told it may call.
finish = spec_only(
    "finish",
    "Call when the task is complete (tests pass), with a short summary of what you changed.",
    {"summary": {"type": "string"}},
    ["summary"],
)
