"""The review queue as a person uses it: the installed `kiln` in tmux, the scripted model,
the Docker sandbox. A task's change is applied and committed by kiln ([git] commit); the
queue lists kiln's commits (this session's marked); d drops one; `git reflog` has it and
brings it back."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from agent.llm.scripted.server import ScriptedServer
from agent.settings import trust
from agent.vcs.commit import Provenance, commit_last_applied
from tests.tui.scripts import FIXED, calc_repo, fix_calc_turns
from tests.tui.test_e2e_tmux import Tmux
from tests.vcs.conftest import GIT_ENV, git, land

pytestmark = pytest.mark.usefixtures("docker_ready")


def test_the_queue_in_tmux_drops_a_commit_and_the_reflog_brings_it_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (.ci/setup installs it)")
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    repo = calc_repo(tmp_path / "repo")
    (repo / ".kiln.toml").write_text("[git]\ncommit = true\n")
    git(repo, "add", ".kiln.toml")
    git(repo, "commit", "-qm", "kiln settings")
    trust.trust(repo)  # commits are the person's call: honoured from a trusted file only
    land(repo, "NOTES.md", "notes\n", session="earlier")  # an earlier session's commit
    commit_last_applied(repo, "docs: add notes", Provenance("earlier", "m", 10, 0.0))
    # The task's turns, then the commit message kiln asks for once the change is applied.
    turns = [*fix_calc_turns(), {"text": "fix: make add() add"}]
    tmux = Tmux(f"kiln-queue-{os.getpid()}")
    with ScriptedServer(turns) as server:
        tmux.start_kiln(repo, server)
        try:
            tmux.wait_for(lambda s: "ready" in s, "the sandbox to be ready")
            tmux("send-keys", "-t", "kiln", "fix the add test", "Enter")
            tmux.wait_for(lambda s: "Allow this edit" in s, "the edit question")
            tmux("send-keys", "-t", "kiln", "y")
            tmux.wait_for(lambda s: "Write these changes" in s, "the diff offered at the end")
            tmux("send-keys", "-t", "kiln", "y")
            tmux.wait_for(lambda s: "Committed " in s, "kiln's commit")
            assert git(repo, "log", "-1", "--format=%s").strip() == "fix: make add() add"
            assert (repo / "calc.py").read_text() == FIXED

            tmux("send-keys", "-t", "kiln", "/queue", "Enter")
            screen = tmux.wait_for(lambda s: "docs: add notes" in s, "the queue")
            mine = next(line for line in screen.splitlines() if "fix: make add() add" in line)
            assert "●" in mine and "1 files +1 -1" in mine
            theirs = next(line for line in screen.splitlines() if "docs: add notes" in line)
            assert "●" not in theirs
            tip = git(repo, "rev-parse", "HEAD").strip()

            tmux("send-keys", "-t", "kiln", "d")  # the cursor is on the newest: this session's
            # The sentence and the redrawn list may reach the screen in separate frames.
            screen = tmux.wait_for(
                lambda s: "git reflog keeps" in s and len(_rows(s)) == 1, "the drop and the list"
            )
            rows = _rows(screen)
            assert len(rows) == 1 and "docs: add notes" in rows[0]
            assert "fix: make add() add" not in git(repo, "log", "--format=%s")
            assert (repo / "calc.py").read_text() != FIXED
        finally:
            subprocess.run(["tmux", "-L", tmux.socket, "kill-server"], capture_output=True)
    reflog = git(repo, "reflog", "--format=%H %gs", "main")
    assert reflog.splitlines()[1].startswith(tip)
    git(repo, "reset", "-q", "--hard", "main@{1}")
    assert git(repo, "log", "-1", "--format=%s").strip() == "fix: make add() add"
    assert (repo / "calc.py").read_text() == FIXED


def _rows(screen: str) -> list[str]:
    """The queue's commit rows on the screen."""
    return [line for line in screen.splitlines() if "files +" in line]
