"""The model's ten tools, by name. `specs()` is what the model is told; `call()` runs one.

The `agent` tool (agent/tools/delegate.py) and MCP servers' tools (agent/tools/external.py)
come after the ten, never among them.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from agent.llm.base import ToolSpec
from agent.tools.base import Tool, ToolContext, ToolFailure, ToolResult
from agent.tools.control import finish, update_plan
from agent.tools.delegate import agent_spec
from agent.tools.edits import edit_file, write_file
from agent.tools.external import call_external
from agent.tools.files import list_files, read_file, search
from agent.tools.shell import run, run_tests
from agent.tools.symbols import find_symbol

TOOLS: dict[str, Tool] = {
    t.spec.name: t
    for t in (
        read_file,
        list_files,
        search,
        find_symbol,
        edit_file,
        write_file,
        run,
        run_tests,
        update_plan,
        finish,
    )
}
# Tools that do not change the workspace; everything else may.
READ_ONLY = frozenset({"read_file", "list_files", "search", "find_symbol", "update_plan", "finish"})
EDIT_TOOLS = frozenset({"edit_file", "write_file"})


def specs(ctx: ToolContext | None = None) -> list[ToolSpec]:
    """The coding group sorted by name (a child's own choice of it), the `agent` tool when
    the session offers one, then the session's external tools (sorted and fixed at its
    start), so the prompt prefix (and the server's cache of it) never changes with the
    order tools are registered or discovered in."""
    only = ctx.only if ctx else None
    coding = [TOOLS[name].spec for name in sorted(TOOLS) if only is None or name in only]
    delegating = [agent_spec(ctx.agents)] if ctx and ctx.agents else []
    external = list(ctx.external.specs) if ctx and ctx.external else []
    return coding + delegating + external


async def call(ctx: ToolContext, name: str, arguments: dict[str, Any]) -> ToolResult:
    """Run one tool; a mistake the model can fix comes back as a failed result, not an error.
    The person's hooks run before (and may block it) and after (and may add to it)."""
    if ctx.hooks is None or not isinstance(arguments, dict):
        return _with_late_diagnostics(ctx, await _call(ctx, name, arguments))
    refusal = await ctx.hooks.before_tool(name, arguments, ctx.emit)
    if refusal is not None:
        return ToolResult(False, refusal)
    result = await _call(ctx, name, arguments)
    added = await ctx.hooks.after_tool(name, arguments, result.ok, result.output, ctx.emit)
    result = dataclasses.replace(result, output=f"{result.output}\n{added}") if added else result
    return _with_late_diagnostics(ctx, result)


def _with_late_diagnostics(ctx: ToolContext, result: ToolResult) -> ToolResult:
    """What an earlier edit introduced, found once its language server had started (agent/
    lsp/servers.py), goes with the first result after that."""
    late = ctx.language_servers.late() if ctx.language_servers is not None else ""
    return dataclasses.replace(result, output=f"{result.output}\n{late}") if late else result


async def _call(ctx: ToolContext, name: str, arguments: dict[str, Any]) -> ToolResult:
    tool = TOOLS.get(name)
    if not isinstance(arguments, dict):
        return ToolResult(False, f"Arguments for {name} must be a JSON object.")
    if tool is not None and ctx.only is not None and name not in ctx.only:
        offered = ", ".join(sorted(ctx.only))
        return ToolResult(False, f"{name} is not among this agent's tools ({offered}).")
    if tool is None and ctx.external is not None and ctx.external.owns(name):
        return await call_external(ctx, ctx.external, name, arguments)
    if tool is None:
        return ToolResult(False, f"There is no tool named {name!r}. Tools: {', '.join(TOOLS)}.")
    if tool.run is None:
        raise ValueError(f"{name} is answered by the loop itself; it never reaches call()")
    try:
        return await tool.run(ctx, arguments)
    except ToolFailure as failure:
        return ToolResult(False, str(failure))


__all__ = [
    "EDIT_TOOLS",
    "READ_ONLY",
    "TOOLS",
    "ToolContext",
    "ToolFailure",
    "ToolResult",
    "call",
    "specs",
]
