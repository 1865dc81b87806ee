"""The ACP approver: each option's verdict, reject_always remembered per kind of action (an
MCP tool by name), a cancelled request a rejection."""

from __future__ import annotations

import asyncio

from agent.acp.permissions import AcpApprover
from agent.approval import Action, ApprovalRequest, Verdict
from agent.events import ApprovalRequested


def asked(
    request_id: str, action: Action, path: str = ""
) -> tuple[ApprovalRequest, ApprovalRequested]:
    request = ApprovalRequest(request_id, action, f"{action.value} {path}", path=path)
    return request, ApprovalRequested(request_id, action.value, request.summary, path=path)


async def answered(
    approver: AcpApprover, request_id: str, action: Action, option: str | None, path: str = ""
) -> Verdict:
    request, event = asked(request_id, action, path)
    decision = asyncio.ensure_future(approver.decide(request))
    await asyncio.sleep(0)
    assert approver.pending(request_id)
    approver.answer(event, option)
    return (await decision).verdict


async def test_options_and_what_always_reject_covers() -> None:
    approver = AcpApprover()
    assert await answered(approver, "1", Action.EDIT, "allow_once") is Verdict.APPROVE
    assert await answered(approver, "2", Action.EDIT, "allow_always") is Verdict.ALWAYS
    assert await answered(approver, "3", Action.COMMAND, None) is Verdict.REJECT  # cancelled
    assert await answered(approver, "4", Action.MCP, "reject_always", "mcp__a__x") is Verdict.REJECT
    # the same tool is rejected without asking; another tool of the server still asks
    request, _ = asked("5", Action.MCP, "mcp__a__x")
    decision = await approver.decide(request)
    assert decision.verdict is Verdict.REJECT and "always reject" in decision.reason
    assert not approver.pending("5")  # the client is not asked about it afterwards
    assert await answered(approver, "6", Action.MCP, "allow_once", "mcp__a__y") is Verdict.APPROVE
