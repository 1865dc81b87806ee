"""The two MCP servers of the tests, named in a repository's `.mcp.json`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

SERVERS = Path(__file__).parent / "servers"
HANDWRITTEN = SERVERS / "handwritten_mcp.py"
SDK_BUILT = SERVERS / "sdk_mcp.py"


def write_mcp_json(repo: Path, log: Path | None = None) -> None:
    """`glossary` (hand-written JSON-RPC) and `units` (the mcp SDK) as Claude Code names them."""
    glossary: dict[str, Any] = {"command": sys.executable, "args": [str(HANDWRITTEN)]}
    if log is not None:
        glossary["env"] = {"MCP_LOG": str(log)}
    servers = {"glossary": glossary, "units": {"command": sys.executable, "args": [str(SDK_BUILT)]}}
    (repo / ".mcp.json").write_text(json.dumps({"mcpServers": servers}, indent=2))


def calls_logged(log: Path) -> list[dict[str, Any]]:
    """The tools/call requests the hand-written server received."""
    if not log.exists():
        return []
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    return [m for m in lines if m.get("method") == "tools/call"]
