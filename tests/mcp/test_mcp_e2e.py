"""Must show: MCP servers someone else wrote (one by hand, one with the `mcp` SDK), named in
a trusted repository's `.mcp.json`, called by the scripted model as mcp__NAME__TOOL through
`kiln run` with the real sandbox; `--approval fail` stops before the call with exit 4."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agent.llm.scripted.server import ScriptedServer
from agent.settings import trust
from agent.store.db import Store
from tests.conftest import make_git_repo
from tests.mcp.mcp_fixtures import calls_logged, write_mcp_json

KILN = str(Path(sys.executable).parent / "kiln")
CODING_TOOLS = [
    "edit_file", "find_symbol", "finish", "list_files", "read_file", "run", "run_tests",
    "search", "update_plan", "write_file",
    "agent",  # after the group, for a model that reads on its own (agent/tools/delegate.py)
]  # fmt: skip
MCP_TOOLS = [
    "mcp__glossary__crash", "mcp__glossary__flood", "mcp__glossary__hang", "mcp__glossary__lookup",
    "mcp__units__kiln_cone", "mcp__units__to_celsius",
]  # fmt: skip
ASK_BOTH: list[dict[str, Any]] = [
    {
        "text": "Asking the project's tools.",
        "tool_calls": [
            {"name": "mcp__glossary__lookup", "arguments": {"word": "pot"}},
            {"name": "mcp__units__to_celsius", "arguments": {"fahrenheit": 212}},
        ],
    },
    {"tool_calls": [{"name": "finish", "arguments": {"summary": "looked it up"}}]},
]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = make_git_repo(tmp_path / "repo", {"README.md": "# pots\n"})
    write_mcp_json(repo, tmp_path / "glossary.log")
    return repo


def kiln_run(repo: Path, server: ScriptedServer, approval: str) -> subprocess.CompletedProcess[str]:
    command = [
        KILN, "run", "what is a pot, and 212 F in C?", "--repo", str(repo),
        "--base-url", server.base_url, "--model", "scripted", "--approval", approval,
        "--output-format", "stream-json",
    ]  # fmt: skip
    return subprocess.run(command, capture_output=True, text=True, timeout=180)


def test_the_model_gets_each_servers_answer(docker_ready: None, repo: Path, tmp_path: Path) -> None:
    trust.trust(repo)
    with ScriptedServer(ASK_BOTH) as server:
        done = kiln_run(repo, server, "full-auto")
        requests = [r.body for r in server.chat_requests]
    assert done.returncode in (0, 1), done.stderr
    offered = [t["function"]["name"] for t in requests[0]["tools"]]
    assert offered == CODING_TOOLS + MCP_TOOLS  # the coding group, then MCP's, each sorted
    assert all([t["function"]["name"] for t in r["tools"]] == offered for r in requests)
    results = {
        m["tool_call_id"]: m["content"] for m in requests[1]["messages"] if m["role"] == "tool"
    }
    assert "glossary: pot means a kiln-fired clay vessel" in results.values()
    assert "100.0 C" in results.values()
    events = [json.loads(line) for line in done.stdout.splitlines()]
    finished = [e for e in events if e["type"] == "tool_call_finished" and e["name"] != "finish"]
    assert {e["name"]: (e["ok"], e["output"]) for e in finished} == {
        "mcp__glossary__lookup": (True, "glossary: pot means a kiln-fired clay vessel"),
        "mcp__units__to_celsius": (True, "100.0 C"),
    }
    assert calls_logged(tmp_path / "glossary.log")[0]["params"]["arguments"] == {"word": "pot"}
    session_id = next(e["session_id"] for e in events if e["type"] == "session_started")
    store = Store()
    try:  # the store keeps MCP calls as it keeps every tool call
        rows = store.db.execute(
            "SELECT name, arguments, ok, output FROM tool_calls WHERE session_id = ? "
            "AND name LIKE 'mcp__%' ORDER BY name",
            (session_id,),
        ).fetchall()
    finally:
        store.close()
    assert [(n, json.loads(a), ok, json.loads(o)) for n, a, ok, o in rows] == [
        (
            "mcp__glossary__lookup",
            {"word": "pot"},
            1,
            "glossary: pot means a kiln-fired clay vessel",
        ),
        ("mcp__units__to_celsius", {"fahrenheit": 212}, 1, "100.0 C"),
    ]


def test_approval_fail_stops_before_the_call(
    docker_ready: None, repo: Path, tmp_path: Path
) -> None:
    trust.trust(repo)
    with ScriptedServer(ASK_BOTH) as server:
        done = kiln_run(repo, server, "fail")
    assert done.returncode == 4, done.stderr
    assert "call mcp__glossary__lookup" in done.stderr and "--approval fail" in done.stderr
    assert calls_logged(tmp_path / "glossary.log") == []  # the server never saw the call
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert not [e for e in events if e["type"] == "tool_call_finished"]


def test_an_untrusted_mcp_json_starts_nothing(
    docker_ready: None, repo: Path, tmp_path: Path
) -> None:
    with ScriptedServer(
        [{"tool_calls": [{"name": "finish", "arguments": {"summary": "x"}}]}]
    ) as server:
        done = kiln_run(repo, server, "full-auto")
        offered = [t["function"]["name"] for t in server.chat_requests[0].body["tools"]]
    assert offered == CODING_TOOLS
    assert not (tmp_path / "glossary.log").exists()  # not even started
    said = "(the MCP servers glossary, units in .mcp.json); run `kiln trust`"
    assert said in done.stdout and done.stderr.count(said) == 1  # the stream, and stderr once
