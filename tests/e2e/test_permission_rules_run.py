"""`[permissions]` end to end: the installed `kiln run` in full-auto, the scripted model over
real HTTP, the real Docker sandbox. A deny rule refuses a command full-auto would run, the
model is told so, and nothing ran; an ask rule refuses too, with no person to ask; the
JSON result lists every refusal, and a run left with nothing changed by them exits 7."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent.llm.scripted.server import ScriptedServer
from agent.settings import paths
from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import kiln
from tests.e2e.test_no_false_success import CONFIG_REPO
from tests.scripted import BUGGY_REPO

pytestmark = pytest.mark.usefixtures("docker_ready")

PUSH = {"name": "run", "arguments": {"command": "touch pushed && git push origin main"}}
LOOK = {"name": "run", "arguments": {"command": "ls pushed"}}
FINISH = {"name": "finish", "arguments": {"summary": "Could not push: a rule refused it."}}


def deny_push(extra: str = "") -> None:
    config = paths.user_config_file()
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[permissions]\ndeny = ["run: git push*"]\n' + extra)


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
        code, result, stderr = run_json(repo, server, "What does git push say here? Try it.")
        told = tool_replies(server)
    config = paths.user_config_file()
    assert told[0].startswith(f"Refused by the person's rule deny `run: git push*` ({config})")
    assert "Do not retry" in told[0]
    assert "No such file" in told[1]  # the whole line was refused: `touch` never ran
    # A question answered, nothing changed, because of a refusal: not a success.
    assert result["status"] == "answered" and result["files_changed"] == []
    assert result["denied"] == [
        {
            "tool": "run",
            "what": "run `touch pushed && git push origin main`",
            "why": f"deny `run: git push*` ({config})",
        }
    ]
    assert code == result["exit_code"] == 7
    assert "nothing changed, and 1 action(s) were refused" in stderr


def test_an_ask_rule_refuses_without_a_person_and_a_change_made_still_lists_it(
    tmp_path: Path,
) -> None:
    deny_push('ask = ["run: make*"]\n')
    repo = make_git_repo(tmp_path / "repo", BUGGY_REPO)
    deploy = {"name": "run", "arguments": {"command": "make deploy"}}
    fix = {
        "name": "edit_file",
        "arguments": {"path": "calc.py", "old_text": "a - b", "new_text": "a + b"},
    }
    done = {"name": "finish", "arguments": {"summary": "Fixed add; deploy was refused."}}
    script = [{"tool_calls": [deploy]}, {"tool_calls": [fix]}, {"tool_calls": [done]}]
    with ScriptedServer(script) as server:
        code, result, _ = run_json(repo, server, "fix add, then deploy")
        told = tool_replies(server)
    assert "no person is present" in told[0]
    assert result["denied"] == [
        {
            "tool": "run",
            "what": "run `make deploy` (asked by the rule ask `run: make*` "
            f"({paths.user_config_file()}))",
            "why": "needed approval: no person is present to approve this (headless run)",
        }
    ]
    # Something changed and the tests pass: the refusal is listed, the run succeeded.
    assert result["files_changed"] == ["calc.py"] and code == 0


def test_nothing_changed_because_of_refusals_exits_7_for_a_change_too(tmp_path: Path) -> None:
    deny_push()
    repo = make_git_repo(tmp_path / "repo", CONFIG_REPO)  # its tests pass already
    push = {"name": "run", "arguments": {"command": "git push"}}
    claim = {"name": "finish", "arguments": {"summary": "Pushed."}}
    with ScriptedServer([{"tool_calls": [push]}] + [{"tool_calls": [claim]}] * 4) as server:
        code, result, _ = run_json(repo, server, "make load_config skip comments and push it")
    assert result["stop_reason"] == "nothing_changed" and len(result["denied"]) == 1
    assert code == result["exit_code"] == 7
