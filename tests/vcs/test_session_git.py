"""The git workflows through the session and the command layer every front end uses, and
`kiln run --apply --commit`: a real Session, the scripted model, the Docker sandbox."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agent.approval import Mode
from agent.commands import Commands, Say
from agent.llm.base import ModelProfile
from agent.llm.openai_compat import OpenAICompatClient
from agent.llm.scripted.server import ScriptedServer
from agent.session import Session
from agent.settings.config import load_settings
from tests.conftest import make_git_repo
from tests.review.test_review import finish
from tests.scripted import BUGGY_REPO, FIX_SCRIPT, ScriptedPerson
from tests.vcs.conftest import GIT_ENV, git

pytestmark = pytest.mark.usefixtures("docker_ready")
KILN = str(Path(sys.executable).parent / "kiln")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    return make_git_repo(tmp_path / "repo", BUGGY_REPO)


async def _said(commands: Commands, line: str) -> list[str]:
    return [o.text async for o in commands.run(line) if isinstance(o, Say)]


async def test_apply_commit_review_queue_and_undo_in_a_session(repo: Path) -> None:
    message = {"text": "fix: make add() add"}
    review = {"tool_calls": [finish("correct")]}
    with ScriptedServer([*FIX_SCRIPT, message, review]) as server:
        profile = ModelProfile(base_url=server.base_url, model="scripted", max_retries=0)
        settings = load_settings(repo, env={})
        session = Session(settings, repo, ScriptedPerson(), Mode.AUTO_EDIT,
                          client=OpenAICompatClient(profile))  # fmt: skip
        commands = Commands(settings, Mode.AUTO_EDIT)
        commands.session = session
        try:
            await session.start()
            async for _event in session.run("fix add"):
                pass
            assert await _said(commands, "/commit") == [
                "There is no applied change of this session to commit; /apply first."
            ]
            await _said(commands, "/apply")
            [committed] = await _said(commands, "/commit")
            assert committed.startswith("Committed ") and committed.endswith("fix: make add() add")
            body = git(repo, "log", "-1", "--format=%B")
            assert f"Kiln-Session: {session.session_id}" in body and "Kiln-Model: scripted" in body
            assert "Kiln-Tests: 1 passed, 0 failed" in body
            [queued] = await _said(commands, "/queue")
            assert "fix: make add() add" in queued and "1 passed, 0 failed" in queued
            before = session.usage.output
            reviewing, reviewed = await _said(commands, "/review HEAD")
            assert reviewing == "Reviewing HEAD…" and "review of HEAD" in reviewed
            assert session.usage.output > before  # the review is metered with the session
            [undone] = await _said(commands, "/undo")
            assert "taken off the branch" in undone
            assert git(repo, "log", "--format=%s").splitlines() == ["initial"]
            assert (repo / "calc.py").read_text().endswith("a - b\n")
        finally:
            await session.close()


def test_kiln_run_apply_commit_and_a_hook_that_refuses(repo: Path) -> None:
    turns = [*FIX_SCRIPT, {"text": "Sure, here you go: a fix"}]  # not conventional: the template
    with ScriptedServer(turns) as server:
        done = subprocess.run(
            [KILN, "run", "fix the add function", "--repo", str(repo), "--base-url",
             server.base_url, "--model", "m", "--apply", "--commit", "--output-format", "json"],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["applied"] == ["calc.py"]
    assert git(repo, "log", "-1", "--format=%s").strip() == "fix: fix the add function"
    assert "Kiln-Tokens: " in git(repo, "log", "-1", "--format=%B")

    git(repo, "reset", "-q", "--hard", "HEAD~1")
    hook = repo / ".git" / "hooks" / "commit-msg"
    hook.write_text("#!/bin/sh\necho 'commit-msg: needs a ticket number' >&2\nexit 1\n")
    hook.chmod(0o755)
    with ScriptedServer(turns) as server:
        done = subprocess.run(
            [KILN, "run", "fix the add function", "--repo", str(repo), "--base-url",
             server.base_url, "--model", "m", "--apply", "--commit"],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    assert "commit-msg: needs a ticket number" in done.stderr
    assert (repo / "calc.py").read_text().endswith("a + b\n")  # applied, nothing lost
    assert git(repo, "log", "--format=%s").splitlines() == ["initial"]
    refused = subprocess.run(
        [KILN, "run", "x", "--repo", str(repo), "--commit"], capture_output=True, text=True
    )
    assert refused.returncode == 2 and "add --apply" in refused.stderr


async def test_two_tasks_two_applies_two_commits_in_one_session(repo: Path) -> None:
    """After an apply the sandbox starts over from the repository as it now is, so the
    next task's apply holds only its own change (it is not refused as edited since)."""
    second = [
        {"tool_calls": [{"name": "write_file", "arguments": {"path": "NOTES.md", "content": "add adds\n"}}]},
        {"tool_calls": [{"name": "finish", "arguments": {"summary": "noted"}}]},
    ]  # fmt: skip
    turns = [*FIX_SCRIPT, {"text": "fix: make add() add"}, *second, {"text": "docs: add notes"}]
    with ScriptedServer(turns) as server:
        profile = ModelProfile(base_url=server.base_url, model="scripted", max_retries=0)
        settings = load_settings(repo, {"git.commit": True}, env={})
        session = Session(settings, repo, ScriptedPerson(), Mode.AUTO_EDIT,
                          client=OpenAICompatClient(profile))  # fmt: skip
        commands = Commands(settings, Mode.AUTO_EDIT)
        commands.session = session
        try:
            for task in ("fix add", "write notes"):
                async for _event in session.run(task):
                    pass
                said = await _said(commands, "/apply")
                assert any(s.startswith("Applied to your working tree") for s in said), said
            assert await session.diff() == ""
        finally:
            await session.close()
    assert git(repo, "log", "--format=%s").splitlines() == [
        "docs: add notes", "fix: make add() add", "initial"
    ]  # fmt: skip
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == ["NOTES.md"]
