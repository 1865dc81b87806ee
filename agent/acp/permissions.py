"""What kiln's `ask` mode would ask goes to the ACP client as `session/request_permission`.

The session's Approver waits on a future per request; the prompt's reader, which sees the
`ApprovalRequested` event in order after the tool call it belongs to, asks the client and
settles the future. Applying the sandbox's changes to the working tree is one more request,
on a tool call of its own carrying the combined diff, file by file.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from acp import start_tool_call, text_block, tool_content, tool_diff_content, update_tool_call
from acp.schema import PermissionOption, ToolCallLocation, ToolCallUpdate

from agent.approval import Action, ApprovalRequest, Decision, Verdict
from agent.events import ApprovalRequested
from agent.present import changed_paths
from sandbox.base import Sandbox

OPTIONS = [
    PermissionOption(option_id="allow_once", name="Allow once", kind="allow_once"),
    PermissionOption(option_id="allow_always", name="Always allow", kind="allow_always"),
    PermissionOption(option_id="reject_once", name="Reject", kind="reject_once"),
    PermissionOption(option_id="reject_always", name="Always reject", kind="reject_always"),
]
VERDICTS = {
    "allow_once": Verdict.APPROVE,
    "allow_always": Verdict.ALWAYS,
    "reject_once": Verdict.REJECT,
    "reject_always": Verdict.REJECT,
}


def _kind_of(request: ApprovalRequest | ApprovalRequested) -> str:
    """What "always" covers: an MCP tool by name, anything else by its kind of action."""
    action = str(request.action)
    return f"mcp:{request.path}" if action == Action.MCP.value else action


class AcpApprover:
    """The Session's Approver for one ACP session."""

    def __init__(self) -> None:
        self._waiting: dict[str, asyncio.Future[Decision]] = {}
        self._never: set[str] = set()  # answered reject_always
        self._settled: set[str] = set()  # decided, by the client or by a reject_always

    def _future(self, request_id: str) -> asyncio.Future[Decision]:
        if request_id not in self._waiting:
            self._waiting[request_id] = asyncio.get_running_loop().create_future()
        return self._waiting[request_id]

    async def decide(self, request: ApprovalRequest) -> Decision:
        answer = self._future(request.request_id)
        if _kind_of(request) in self._never and not answer.done():
            answer.set_result(Decision(Verdict.REJECT, "the person said to always reject this"))
        try:
            return await answer
        finally:
            self._waiting.pop(request.request_id, None)
            self._settled.add(request.request_id)

    def pending(self, request_id: str) -> bool:
        """Whether the client is still to be asked (not when a reject_always answered)."""
        return request_id not in self._settled and not self._future(request_id).done()

    def answer(self, event: ApprovalRequested, option_id: str | None) -> None:
        """The client's choice (None: it cancelled the request, as on session/cancel)."""
        if event.request_id in self._settled:
            return
        answer = self._future(event.request_id)
        if answer.done():
            return
        if option_id == "reject_always":
            self._never.add(_kind_of(event))
        if option_id is None:
            answer.set_result(Decision(Verdict.REJECT, "the request was cancelled"))
        else:
            answer.set_result(Decision(VERDICTS.get(option_id, Verdict.REJECT)))


def chosen_option(response: Any) -> str | None:
    outcome = getattr(response, "outcome", None)
    return (
        getattr(outcome, "option_id", None)
        if getattr(outcome, "outcome", "") == "selected"
        else None
    )


def permission_call(call_id: str, event: ApprovalRequested) -> ToolCallUpdate:
    """The tool call a permission request is about (the one in flight)."""
    return ToolCallUpdate(tool_call_id=call_id, title=event.summary)


async def apply_call(
    call_id: str, event: ApprovalRequested, repo: Path, sandbox: Sandbox | None
) -> tuple[Any, ToolCallUpdate]:
    """The apply's own tool call (its `tool_call` update) and what the permission names:
    every changed file as a diff (old and new text), then the combined diff itself."""
    content: list[Any] = []
    for path in changed_paths(event.diff):
        old: str | None = None
        with contextlib.suppress(OSError, UnicodeDecodeError):
            old = (repo / path).read_text(encoding="utf-8")
        new = ""
        if sandbox is not None:
            with contextlib.suppress(Exception):  # deleted in the sandbox, or binary
                new = (await sandbox.read_file(path)).decode("utf-8")
        content.append(tool_diff_content(str(repo / path), new, old))
    content.append(tool_content(text_block(f"```diff\n{event.diff}\n```")))
    locations = [ToolCallLocation(path=str(repo / p)) for p in changed_paths(event.diff)]
    start = start_tool_call(
        call_id,
        event.summary,
        kind="edit",
        status="pending",
        content=content,
        locations=locations,
        raw_input={"diff": event.diff},
    )
    return start, ToolCallUpdate(tool_call_id=call_id, title=event.summary, kind="edit")


def apply_done(call_id: str, paths: tuple[str, ...], approved: bool) -> Any:
    said = f"Applied to your working tree: {', '.join(paths)}." if paths else "Not applied."
    done = approved and bool(paths)
    return update_tool_call(
        call_id, status="completed" if done else "failed", content=[tool_content(text_block(said))]
    )
