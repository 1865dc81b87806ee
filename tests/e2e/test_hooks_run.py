"""Hooks end to end: the installed `kiln run`, the scripted model over real HTTP, the real
Docker sandbox for the tools, the hooks as processes on the host. A PreToolUse hook that
exits 2 blocks a `run` and the model reads its stderr; one that crashes blocks as well;
an untrusted repository's hook does not run, a trusted one does, and changing the script
it runs takes the trust away again."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from agent.llm.scripted.server import ScriptedServer
from agent.settings import paths
from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import kiln
from tests.scripted import BUGGY_REPO

pytestmark = pytest.mark.usefixtures("docker_ready")

PUSH = {"name": "run", "arguments": {"command": "touch pushed; git push origin main"}}
LOOK = {"name": "run", "arguments": {"command": "ls pushed"}}
FINISH = {"name": "finish", "arguments": {"summary": "Done looking."}}
SCRIPT = [{"tool_calls": [PUSH]}, {"tool_calls": [LOOK]}, {"tool_calls": [FINISH]}]
QUESTION = "What does git push say here? Try it."
# Reads the call from stdin as Claude Code's hooks do, logs it, refuses a push.
GUARD = """#!/bin/sh
input=$(cat)
echo "$input" >> "$CLAUDE_PROJECT_DIR/../hook.log"
case "$input" in *"git push"*) echo "pushing is for people, not agents" >&2; exit 2;; esac
exit 0
"""


def user_hooks(toml: str) -> None:
    config = paths.user_config_file()
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(toml)


def stream(repo: Path, server: ScriptedServer) -> tuple[int, list[dict[str, Any]], str]:
    done = kiln(
        "run", QUESTION, "--repo", str(repo), "--base-url", server.base_url, "--model",
        "scripted", "--approval", "full-auto", "--output-format", "stream-json",
    )  # fmt: skip
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()], done.stderr


def tool_replies(server: ScriptedServer) -> list[str]:
    return [m["content"] for m in server.chat_requests[-1].body["messages"] if m["role"] == "tool"]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_git_repo(tmp_path / "repo", BUGGY_REPO)


def test_a_pre_tool_use_hook_exiting_2_blocks_the_command_and_the_model_reads_why(
    repo: Path,
) -> None:
    user_hooks(
        '[[hooks.PreToolUse]]\nmatcher = "run"\n'
        "command = \"grep -q 'git push' && { echo 'no pushing from kiln' >&2; exit 2; }; exit 0\"\n"
    )
    with ScriptedServer(SCRIPT) as server:
        code, events, _ = stream(repo, server)
        told = tool_replies(server)
    assert (
        told[0] == "Blocked by a PreToolUse hook: no pushing from kiln Do not retry it unchanged."
    )
    assert "No such file" in told[1]  # `touch` never ran: the whole call was blocked
    ran = [e for e in events if e["type"] == "hook_ran"]
    assert [(e["hook_event"], e["tool"], e["outcome"], e["exit_code"]) for e in ran] == [
        ("PreToolUse", "run", "blocked", 2),
        ("PreToolUse", "run", "allowed", 0),
    ]
    assert ran[0]["source"] == str(paths.user_config_file())
    result = events[-1]
    assert result["denied"] == [] and code == 0  # a hook's block is the hook's, not a rule's


@pytest.mark.parametrize(
    ("command", "why"),
    [
        ("python3 -c 'import sys; sys.exit(1)'", "failed (exited with 1)"),
        ("./no-such-guard.sh", "failed (exited with 127)"),
        ("kill -9 $$", "failed (was killed by signal 9)"),
    ],
)
def test_a_hook_that_crashes_blocks_too_and_says_so(repo: Path, command: str, why: str) -> None:
    user_hooks(f'[[hooks.PreToolUse]]\nmatcher = "Bash"\ncommand = "{command}"\n')
    with ScriptedServer([{"tool_calls": [PUSH]}, {"tool_calls": [FINISH]}]) as server:
        _, events, _ = stream(repo, server)
        told = tool_replies(server)
    assert f"the PreToolUse hook `{command}` {why}" in told[0]
    assert "kiln blocks what a failing hook guards" in told[0]
    assert [e["outcome"] for e in events if e["type"] == "hook_ran"] == ["failed"]


# A repository's guard: it runs in the sandbox, so it logs where the sandbox can write (the
# workspace's .git, which no diff holds) and the model's next command reads the log back.
REPO_GUARD = GUARD.replace("$CLAUDE_PROJECT_DIR/../hook.log", "$CLAUDE_PROJECT_DIR/.git/hook.log")
READ_LOG = {"name": "run", "arguments": {"command": "ls pushed; cat .git/hook.log"}}
REPO_SCRIPT = [{"tool_calls": [PUSH]}, {"tool_calls": [READ_LOG]}, {"tool_calls": [FINISH]}]


def test_a_repository_hook_runs_only_once_trusted_and_as_trusted(repo: Path) -> None:
    (repo / ".claude" / "hooks").mkdir(parents=True)
    guard = repo / ".claude" / "hooks" / "guard.sh"
    guard.write_text(REPO_GUARD)
    guard.chmod(0o755)
    settings = {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [{"type": "command", "command": ".claude/hooks/guard.sh"}],
                }
            ]
        }
    }
    (repo / ".claude" / "settings.json").write_text(json.dumps(settings))
    host_log = repo / ".git" / "hook.log"  # where it would log, had it run on the host

    with ScriptedServer(REPO_SCRIPT) as server:
        _, events, _ = stream(repo, server)
        told = tool_replies(server)
    assert not any(e["type"] == "hook_ran" for e in events)
    assert "kiln ignores what it would run (the hooks in .claude/settings.json)" in json.dumps(
        events
    )
    assert "hook.log: No such file" in told[1]  # unguarded: no log...
    assert "cannot access 'pushed'" not in told[1]  # ...and the command ran

    trusted = kiln("trust", str(repo))
    assert ".claude/hooks/" in trusted.stdout and "in a sandbox" in trusted.stdout
    with ScriptedServer(REPO_SCRIPT) as server:
        _, events, _ = stream(repo, server)
        told = tool_replies(server)
    assert told[0].startswith("Blocked by a PreToolUse hook: pushing is for people, not agents")
    ran = [e for e in events if e["type"] == "hook_ran"]
    assert [(e["outcome"], e["in_sandbox"]) for e in ran] == [("blocked", True), ("allowed", True)]
    logged = [line for line in told[1].splitlines() if line.startswith("{")]
    call = json.loads(logged[0])  # the log the hook wrote in the sandbox
    assert call["hook_event_name"] == "PreToolUse" and call["tool_name"] == "run"
    assert call["tool_input"]["command"] == PUSH["arguments"]["command"]
    assert call["session_id"] and call["cwd"] == "/workspace"
    assert not host_log.exists()  # it ran in the sandbox, never on this machine

    # The script changed (as a model's applied diff could change it): trust is gone.
    guard.write_text(REPO_GUARD.replace("exit 2", "exit 0"))
    with ScriptedServer(REPO_SCRIPT) as server:
        _, events, _ = stream(repo, server)
    assert not any(e["type"] == "hook_ran" for e in events)
    assert os.access(guard, os.X_OK)


def test_user_prompt_submit_and_before_apply_hooks_block_what_they_guard(repo: Path) -> None:
    user_hooks(
        '[[hooks.UserPromptSubmit]]\ncommand = "grep -q secret && { echo no secrets >&2; exit 2; }; exit 0"\n'
        '[[hooks.BeforeApply]]\ncommand = "echo frozen for the release >&2; exit 2"\n'
    )
    with ScriptedServer(SCRIPT) as server:
        blocked = kiln(
            "run", "print the secret", "--repo", str(repo), "--base-url", server.base_url,
            "--model", "scripted", "--output-format", "json",
        )  # fmt: skip
        assert server.chat_requests == []  # the model never saw the request
    result = json.loads(blocked.stdout)
    assert result["stop_reason"] == "hook_blocked" and blocked.returncode == 7
    assert result["summary"] == "A UserPromptSubmit hook blocked the request: no secrets"

    fix = {
        "name": "edit_file",
        "arguments": {"path": "calc.py", "old_text": "a - b", "new_text": "a + b"},
    }
    script = [{"tool_calls": [fix]}, {"tool_calls": [FINISH]}]
    with ScriptedServer(script) as server:
        done = kiln(
            "run", "fix add", "--repo", str(repo), "--base-url", server.base_url, "--model",
            "scripted", "--apply", "--output-format", "stream-json",
        )  # fmt: skip
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines[-1]["applied"] == [] and lines[-1]["files_changed"] == ["calc.py"]
    assert (repo / "calc.py").read_text() == BUGGY_REPO["calc.py"]  # nothing written
    said = [e["message"] for e in lines if e["type"] == "notice"]
    assert "A BeforeApply hook blocked the apply: frozen for the release" in said


def test_a_before_commit_hook_blocks_kiln_s_commit_and_the_apply_stays(repo: Path) -> None:
    user_hooks('[[hooks.BeforeCommit]]\ncommand = "echo not on friday >&2; exit 2"\n')
    fix = {
        "name": "edit_file",
        "arguments": {"path": "calc.py", "old_text": "a - b", "new_text": "a + b"},
    }
    with ScriptedServer([{"tool_calls": [fix]}, {"tool_calls": [FINISH]}]) as server:
        done = kiln(
            "run", "fix add", "--repo", str(repo), "--base-url", server.base_url, "--model",
            "scripted", "--apply", "--commit", "--output-format", "stream-json",
        )  # fmt: skip
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines[-1]["applied"] == ["calc.py"]
    said = [e["message"] for e in lines if e["type"] == "notice"]
    assert "A BeforeCommit hook blocked the commit: not on friday" in said
    log = subprocess.run(["git", "log", "--oneline"], cwd=repo, capture_output=True, text=True)
    assert len(log.stdout.splitlines()) == 1  # only the repository's own first commit


def test_what_session_start_and_prompt_hooks_add_reaches_the_model_once(repo: Path) -> None:
    user_hooks(
        '[[hooks.SessionStart]]\ncommand = "echo branch release-2 is frozen"\n'
        '[[hooks.UserPromptSubmit]]\ncommand = "echo ticket KILN-7"\n'
    )
    with ScriptedServer([{"tool_calls": [FINISH]}]) as server:
        done = kiln(
            "run", QUESTION, "--repo", str(repo), "--base-url", server.base_url, "--model",
            "scripted", "--output-format", "json",
        )  # fmt: skip
        first = [
            m["content"] for m in server.chat_requests[0].body["messages"] if m["role"] == "user"
        ]
    assert done.returncode == 0, done.stderr
    said = "\n".join(first)
    assert QUESTION in said  # the person's words first, then what the hooks added
    assert said.index(QUESTION) < said.index("Context added by the person's hooks:")
    assert "branch release-2 is frozen" in said and "ticket KILN-7" in said


def test_a_stop_hook_that_blocks_makes_the_model_go_on_once(repo: Path) -> None:
    # Written as Claude Code's Stop hooks are: block unless already sent back once.
    user_hooks(
        "[[hooks.Stop]]\n"
        'command = "grep -q \'\\"stop_hook_active\\": true\' && exit 0; '
        'echo run the linter first >&2; exit 2"\n'
    )
    with ScriptedServer([{"tool_calls": [FINISH]}, {"tool_calls": [FINISH]}]) as server:
        code, lines, stderr = stream(repo, server)
        sent_back = tool_replies(server)
    assert code == 0, stderr
    assert "Not finished: a Stop hook asks you to go on: run the linter first" in sent_back
    ran = [e for e in lines if e["type"] == "hook_ran"]
    assert [e["outcome"] for e in ran] == ["blocked", "allowed"]
    assert lines[-1]["type"] == "result" and lines[-1]["stop_reason"] == "done"
