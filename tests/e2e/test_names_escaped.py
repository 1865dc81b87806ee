"""Names kiln did not choose, printed escaped: a file the model named with a terminal
escape in it, as `kiln apply` reports it, and an MCP server's tool names in `kiln mcp
list`. The installed kiln, the scripted model over HTTP, the real Docker sandbox."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from agent.settings import paths
from tests.conftest import make_git_repo
from tests.e2e.test_host_code import FIX, kiln_run, turns, write
from tests.e2e.test_kiln_run import KILN
from tests.e2e.test_refused_apply import CALC, TESTS

ESCAPE = "\x1b]0;pwned\x07"


def test_kiln_apply_names_a_hostile_file_name_escaped(docker_ready: None, tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})
    result, code = kiln_run(repo, turns(FIX, write(f"notes{ESCAPE}.txt", "hi\n")))
    assert code == 0 and result["applied"] == []
    done = subprocess.run(
        [KILN, "apply", result["session_id"], "--yes"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "notes\\x1b]0;pwned\\x07.txt" in done.stdout and "\x1b" not in done.stdout
    assert (repo / f"notes{ESCAPE}.txt").read_text() == "hi\n"  # the file itself is as named


# A stdio MCP server offering one tool whose name holds a terminal escape.
SERVER = """import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
              "serverInfo": {"name": "x", "version": "1"}}
    if msg["method"] == "tools/list":
        result = {"tools": [{"name": "look\\u001b[2J", "description": "d",
                             "inputSchema": {"type": "object"}}]}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}) + "\\n")
    sys.stdout.flush()
"""


def test_kiln_mcp_list_shows_a_servers_tool_names_escaped(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", {"a.py": "x = 1\n"})
    server = tmp_path / "server.py"
    server.write_text(SERVER)
    paths.user_config_file().parent.mkdir(parents=True, exist_ok=True)
    paths.user_config_file().write_text(
        f'[mcp_servers.odd]\ncommand = "{sys.executable}"\nargs = ["{server}"]\n'
    )
    done = subprocess.run(
        [KILN, "mcp", "list", "--repo", str(repo)], capture_output=True, text=True, timeout=60
    )
    assert "odd: started" in done.stdout, done.stdout + done.stderr
    assert "look\\x1b[2J" in done.stdout and "\x1b" not in done.stdout
