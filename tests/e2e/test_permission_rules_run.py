"""`[permissions]` end to end: the installed `kiln run` in full-auto, the scripted model over
real HTTP, the real Docker sandbox. A deny rule refuses a command full-auto would run, the
model is told so, and nothing ran."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent.llm.scripted.server import ScriptedServer
from agent.settings import paths
from tests.conftest import make_git_repo
from tests.core.conftest import BUGGY_REPO
from tests.e2e.test_kiln_run import kiln

pytestmark = pytest.mark.usefixtures("docker_ready")

PUSH = {"name": "run", "arguments": {"command": "touch pushed && git push origin main"}}
LOOK = {"name": "run", "arguments": {"command": "ls pushed"}}
FINISH = {"name": "finish", "arguments": {"summary": "Could not push: a rule refused it."}}


def deny_push() -> None:
    config = paths.user_config_file()
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[permissions]\ndeny = ["run: git push*"]\n')


def run_json(repo: Path, server: ScriptedServer, task: str) -> tuple[int, dict[str, Any], str]:
    done = kiln(
        "run", task, "--repo", str(repo), "--base-url", server.base_url, "--model", "scripted",
        "--approval", "full-auto", "--output-format", "json",
    )  # fmt: skip
    return done.returncode, json.loads(done.stdout), done.stderr


def tool_replies(server: ScriptedServer) -> list[str]:
    last = server.chat_requests[-1].body["messages"]
    return [m["content"] for m in last if m["role"] == "tool"]


def test_a_deny_rule_refuses_a_command_in_full_auto_and_the_model_is_told(
    tmp_path: Path,
) -> None:
    deny_push()
    repo = make_git_repo(tmp_path / "repo", BUGGY_REPO)
    with ScriptedServer(
        [{"tool_calls": [PUSH]}, {"tool_calls": [LOOK]}, {"tool_calls": [FINISH]}]
    ) as server:
        _, result, _ = run_json(repo, server, "What does git push say here? Try it.")
        told = tool_replies(server)
    config = paths.user_config_file()
    assert told[0].startswith(f"Refused by the person's rule deny `run: git push*` ({config})")
    assert "Do not retry" in told[0]
    assert "No such file" in told[1]  # the whole line was refused: `touch` never ran
    assert result["status"] == "done" and result["files_changed"] == []
