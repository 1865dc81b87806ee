"""The repository's git directory, as git itself names it, whatever the layout."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from agent.vcs.gitcmd import git_dir
from tests.conftest import make_git_repo
from tests.vcs.conftest import git


def asked_of_git(where: Path) -> Path:
    out = subprocess.run(
        ["git", "rev-parse", "--absolute-git-dir"], cwd=where, capture_output=True, text=True
    ).stdout
    return Path(out.strip()).resolve()


def test_a_repository_a_worktree_and_a_subfolder_get_the_git_dir_git_names(
    tmp_path: Path,
) -> None:
    repo = make_git_repo(tmp_path / "repo", {"a.py": "x = 1\n", "sub/b.py": "y = 2\n"})
    git(repo, "worktree", "add", "-q", str(tmp_path / "tree"), "-b", "other")
    for where in (repo, tmp_path / "tree", repo / "sub"):
        assert git_dir(where).resolve() == asked_of_git(where), where
    assert git_dir(tmp_path / "tree") != git_dir(repo)


def test_git_dir_in_the_environment_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = make_git_repo(tmp_path / "repo", {"a.py": "x = 1\n"})
    other = make_git_repo(tmp_path / "other", {"b.py": "y = 2\n"})
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    assert git_dir(repo).resolve() == (other / ".git").resolve()
