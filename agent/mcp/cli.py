"""`kiln mcp list`: each MCP server a session here would use, whether it started, its tools."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from agent.mcp.config import choose_servers
from agent.mcp.tools import McpTools
from agent.present import escape_controls
from agent.settings import trust
from agent.settings.config import McpServer, Settings, load_settings
from agent.settings.repo import find_repo


def _say(line: str) -> None:
    # A server's tool names and its error come from the server: shown, not obeyed.
    print(escape_controls(line, one_line=True))


def main(args: argparse.Namespace) -> int:
    repo = find_repo(args.repo)
    settings = load_settings(repo)
    chosen = choose_servers(repo, settings)
    untrusted = trust.ignored_runs(repo, settings.ignored)
    for note in [*chosen.notes, *([untrusted] if untrusted else [])]:
        print(note)
    if not chosen.servers:
        print("No MCP servers are configured ([mcp_servers.NAME] in config.toml, or .mcp.json).")
        return 0
    tools = asyncio.run(_started(chosen.servers, repo, settings))
    for name, state in tools.states.items():
        where = state.server.url or " ".join([state.server.command, *state.server.args])
        if state.error:
            _say(f"{name}: not started ({where}): {state.error}")
            continue
        offered = tools.tools_of(name)
        _say(f"{name}: started ({where}), {len(offered)} tools")
        for tool in offered:
            allowed = " (runs without asking)" if tool in state.server.allow else ""
            _say(f"  mcp__{name}__{tool}{allowed}")
    for note in tools.notes:
        if "max_tools" in note:
            print(note)
    return 0


async def _started(servers: dict[str, McpServer], repo: Path, settings: Settings) -> McpTools:
    tools = await McpTools.start(servers, repo, settings.mcp.max_tools, settings.model_key_vars)
    await tools.close()
    return tools
