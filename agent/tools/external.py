"""Tools that are not kiln's own: an MCP server's, offered as `mcp__SERVER__TOOL`.

They are listed apart from the coding group (after it, sorted, fixed for the session so the
prompt prefix the server caches never changes), and they run outside the sandbox, so every
call passes the approval gate as Action.MCP unless the configuration allows that tool.
The session hands an `ExternalTools` (agent/tools/base.py) to the ToolContext;
agent/mcp implements it.
"""

from __future__ import annotations

import json
from typing import Any

from agent.approval import Action
from agent.tools.base import ExternalTools, ToolContext, ToolResult


async def call_external(
    ctx: ToolContext, external: ExternalTools, name: str, arguments: dict[str, Any]
) -> ToolResult:
    if not external.allowed(name):
        shown = json.dumps(arguments, ensure_ascii=False)
        shown = shown if len(shown) <= 120 else shown[:119] + "…"
        summary = f"call {name} {shown}"
        refusal = await ctx.gate.check(Action.MCP, summary, ctx.emit, path=name)
        if refusal:
            return ToolResult(False, refusal)
    return await external.call(name, arguments)
