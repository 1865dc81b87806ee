"""`kiln mcp list`: each server, whether it started, and its tools; untrusted files say so."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from agent.settings import paths, trust
from tests.acp.plain_acp import KILN
from tests.conftest import make_git_repo
from tests.mcp.mcp_fixtures import HANDWRITTEN, write_mcp_json


def kiln_mcp_list(repo: Path) -> str:
    done = subprocess.run(
        [KILN, "mcp", "list", "--repo", str(repo)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_lists_servers_started_or_not_with_their_tools(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", {"README.md": "x\n"})
    write_mcp_json(repo)
    paths.config_dir().mkdir(parents=True, exist_ok=True)
    paths.user_config_file().write_text(
        f'[mcp_servers.own]\ncommand = "{sys.executable}"\nargs = ["{HANDWRITTEN}"]\n'
        'allow = ["lookup"]\n\n[mcp_servers.gone]\ncommand = "/no/such/server"\n'
    )
    before = kiln_mcp_list(repo)
    assert "(the MCP servers glossary, units in .mcp.json); run `kiln trust`" in before
    assert "glossary:" not in before and "own: started" in before
    assert "gone: not started (/no/such/server): The MCP server gone could not be started" in before
    trust.trust(repo)
    after = kiln_mcp_list(repo)
    assert "glossary: started" in after and "units: started" in after
    assert "  mcp__own__lookup (runs without asking)\n" in after
    assert "  mcp__units__kiln_cone\n  mcp__units__to_celsius\n" in after
