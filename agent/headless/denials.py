"""What a headless run was refused: every action a permission rule denied, and every one
that needed an approval no one gave (`kiln run` has no person to ask).

Peers deny such actions silently in their headless modes, so CI goes green on an empty
diff. kiln lists them in the result (`denied`), and a run that ends with nothing changed
while something was refused exits `ExitCode.REFUSED`, not 0.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from agent.approval import Verdict
from agent.events import (
    ActionDenied,
    ApprovalRequested,
    ApprovalResolved,
    Event,
    Finished,
    StopReason,
    ToolCallFinished,
    ToolCallStarted,
)


def denied_actions(events: Iterable[Event]) -> list[dict[str, Any]]:
    """`{"tool", "what", "why"}` for each refused action, in the order they happened; `tool`
    is the model's tool that tried it ("apply" for writing to the repository)."""
    denied: list[dict[str, Any]] = []
    tool = ""
    asked: dict[str, ApprovalRequested] = {}
    for event in events:
        if isinstance(event, ToolCallStarted):
            tool = event.name
        elif isinstance(event, ToolCallFinished):
            tool = ""
        elif isinstance(event, ActionDenied):
            denied.append(
                {"tool": tool or event.action.value, "what": event.summary, "why": event.rule}
            )
        elif isinstance(event, ApprovalRequested):
            asked[event.request_id] = event
        elif isinstance(event, ApprovalResolved) and event.decision == Verdict.REJECT:
            request = asked.get(event.request_id)
            why = f"needed approval: {event.reason}" if event.reason else "needed approval"
            denied.append(
                {
                    "tool": tool or (request.action.value if request else ""),
                    "what": request.summary if request else "",
                    "why": why,
                }
            )
        elif isinstance(event, Finished) and event.stop_reason is StopReason.APPROVAL_NEEDED:
            why = "needed approval, and --approval fail ends the run there"
            denied.append({"tool": tool, "what": event.summary, "why": why})
    return denied
