"""Committing what kiln applied, and undoing it, on real repositories: hooks run, only
kiln's paths and lines are touched, the person's edits are never lost."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from agent.errors import KilnError
from agent.vcs.commit import (
    CommitFailed,
    Provenance,
    clean_subject,
    commit_last_applied,
    template_message,
)
from agent.vcs.undo import UndoRefused, undo_last
from tests.conftest import make_git_repo
from tests.vcs.conftest import GIT_ENV, git, land

KILN = str(Path(sys.executable).parent / "kiln")
CALC = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n"
FIXED = CALC.replace("return a - b\n\n", "return a + b\n\n", 1)
WHO = Provenance("s1", "scripted-model", 1234, 0.0123, "3 passed, 0 failed")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    return make_git_repo(tmp_path / "calc", {"calc.py": CALC, "notes.txt": "mine\n"})


def test_the_commit_holds_only_kiln_paths_with_trailers(repo: Path) -> None:
    (repo / "notes.txt").write_text("the person's own edit\n")  # not kiln's: stays out
    land(repo, "calc.py", FIXED)
    sha = commit_last_applied(repo, "fix: add adds", WHO)
    assert git(repo, "show", "--name-only", "--format=", sha).split() == ["calc.py"]
    message = git(repo, "log", "-1", "--format=%B", sha)
    assert message.startswith("fix: add adds\n\n")
    for line in ("Kiln-Session: s1", "Kiln-Model: scripted-model", "Kiln-Tokens: 1234",
                 "Kiln-Cost: $0.0123", "Kiln-Tests: 3 passed, 0 failed"):  # fmt: skip
        assert line in message
    assert (repo / "notes.txt").read_text() == "the person's own edit\n"
    assert "notes.txt" in git(repo, "status", "--porcelain")
    with pytest.raises(KilnError, match="no applied change"):
        commit_last_applied(repo, "fix: again", WHO)  # committed already


def test_hooks_run_and_a_refusing_hook_loses_nothing(repo: Path) -> None:
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\necho 'lint: calc.py is not formatted' >&2\nexit 1\n")
    hook.chmod(0o755)
    land(repo, "calc.py", FIXED)
    with pytest.raises(CommitFailed, match=r"lint: calc\.py is not formatted"):
        commit_last_applied(repo, "fix: add adds", WHO)
    assert (repo / "calc.py").read_text() == FIXED  # the change is there, staged
    assert git(repo, "diff", "--cached", "--name-only").split() == ["calc.py"]
    assert git(repo, "rev-list", "--count", "HEAD").strip() == "1"
    hook.write_text("#!/bin/sh\ntouch .git/hook-ran\n")  # fixed: the hook runs, and passes
    sha = commit_last_applied(repo, "fix: add adds", WHO)
    assert (repo / ".git" / "hook-ran").exists() and sha


def test_commits_on_a_branch_of_the_session_name_the_branch_left(repo: Path) -> None:
    land(repo, "calc.py", FIXED)
    sha = commit_last_applied(repo, "fix: add adds", WHO, branch="kiln/{session}")
    assert git(repo, "branch", "--show-current").strip() == "kiln/s1"
    assert "Kiln-Target: main" in git(repo, "log", "-1", "--format=%B", sha)
    assert git(repo, "rev-parse", "main") != git(repo, "rev-parse", "kiln/s1")


def test_undo_in_the_working_tree_takes_out_only_kiln_lines(repo: Path) -> None:
    land(repo, "calc.py", FIXED)
    edited = FIXED.replace("def sub(a, b):", "def sub(a, b):  # the person's comment")
    (repo / "calc.py").write_text(edited)
    said = undo_last(repo)
    assert "calc.py" in said
    assert (repo / "calc.py").read_text() == CALC.replace(
        "def sub(a, b):", "def sub(a, b):  # the person's comment"
    )
    with pytest.raises(KilnError, match="applied nothing"):
        undo_last(repo)


def test_undo_refuses_when_the_person_edited_kiln_lines(repo: Path) -> None:
    land(repo, "calc.py", FIXED)
    mine = FIXED.replace("return a + b", "return b + a")
    (repo / "calc.py").write_text(mine)
    with pytest.raises(UndoRefused, match="changed where kiln's lines are"):
        undo_last(repo)
    assert (repo / "calc.py").read_text() == mine  # nothing touched


def test_undo_of_kiln_commit_at_the_tip_leaves_it_in_the_reflog(repo: Path) -> None:
    land(repo, "calc.py", FIXED)
    land(repo, "new.py", "print('kiln made me')\n")
    first = commit_last_applied(repo, "feat: add new.py", WHO)
    said = undo_last(repo)
    assert first[:10] in said and "reflog" in said
    assert git(repo, "rev-list", "--count", "HEAD").strip() == "1"
    assert not (repo / "new.py").exists()
    assert (repo / "calc.py").read_text() == FIXED  # the older change set is left alone
    assert first in git(repo, "reflog", "--format=%H")
    assert git(repo, "status", "--porcelain").split() == ["M", "calc.py"]


def test_undo_of_an_older_kiln_commit_reverts_it(repo: Path) -> None:
    land(repo, "calc.py", FIXED)
    kiln_commit = commit_last_applied(repo, "fix: add adds", WHO)
    (repo / "notes.txt").write_text("later\n")
    git(repo, "commit", "-qam", "the person's commit")
    said = undo_last(repo)
    assert "reverted" in said
    assert (repo / "calc.py").read_text() == CALC
    assert git(repo, "log", "-1", "--format=%s").startswith("Revert")
    assert kiln_commit in git(repo, "log", "--format=%H")


def test_kiln_undo_on_the_command_line(repo: Path) -> None:
    land(repo, "calc.py", FIXED)
    done = subprocess.run([KILN, "undo", "--repo", str(repo)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (repo / "calc.py").read_text() == CALC
    again = subprocess.run([KILN, "undo", "--repo", str(repo)], capture_output=True, text=True)
    assert again.returncode == 1 and again.stderr.startswith("kiln: kiln has applied nothing")


def test_subjects_are_conventional_with_or_without_a_model() -> None:
    assert template_message("Fix the failing date tests.") == "fix: fix the failing date tests"
    assert template_message("add a --json flag to export") == "feat: add a --json flag to export"
    assert clean_subject("feat(export): add --json\n\nmore", "x") == "feat(export): add --json"
    assert clean_subject("Sure! Here is a message", "fix add") == "fix: fix add"
    assert len(template_message("make " + "very " * 40 + "long")) <= 72
