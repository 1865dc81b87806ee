"""The review queue's git operations on real repositories: each one is plain git, and
`git reflog` brings back what it changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.vcs import queue
from agent.vcs.commit import Provenance, commit_last_applied
from agent.vcs.queue import QueueRefused
from tests.conftest import make_git_repo
from tests.vcs.conftest import GIT_ENV, git, land


def kiln_commit(repo: Path, path: str, text: str, subject: str, session: str = "s1",
                branch: str = "", tokens: int = 100, cost: float = 0.01) -> str:  # fmt: skip
    land(repo, path, text, session)
    who = Provenance(session, "scripted-model", tokens, cost, "2 passed, 0 failed")
    return commit_last_applied(repo, subject, who, branch=branch)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    return make_git_repo(tmp_path / "r", {"a.txt": "a\n"})


def log(repo: Path) -> list[str]:
    return git(repo, "log", "--format=%s").splitlines()


def test_the_queue_lists_only_kiln_commits_with_stat_cost_and_tests(repo: Path) -> None:
    kiln_commit(repo, "one.py", "x = 1\n", "feat: one")
    (repo / "a.txt").write_text("mine\n")
    git(repo, "commit", "-qam", "the person's commit")
    kiln_commit(repo, "two.py", "y = 2\nz = 3\n", "feat: two", session="s2")
    listed = queue.kiln_commits(repo)
    assert [c.subject for c in listed] == ["feat: two", "feat: one"]
    assert listed[0].diffstat == "1 files +2 -0" and listed[0].cost == "$0.0100"
    assert listed[0].tests == "2 passed, 0 failed" and listed[0].session == "s2"
    assert [c.subject for c in queue.kiln_commits(repo, session="s1")] == ["feat: one"]
    assert "+y = 2" in queue.commit_diff(repo, listed[0].sha)
    lines = queue.queue_lines(repo)
    assert lines[0].startswith(listed[0].sha[:10]) and "feat: two" in lines[0]


def test_drop_then_the_reflog_brings_it_back(repo: Path) -> None:
    first = kiln_commit(repo, "one.py", "x = 1\n", "feat: one")
    kiln_commit(repo, "two.py", "y = 2\n", "feat: two")
    tip = git(repo, "rev-parse", "HEAD").strip()
    said = queue.drop(repo, first)
    assert log(repo) == ["feat: two", "initial"]
    assert not (repo / "one.py").exists() and (repo / "two.py").exists()
    assert tip[:10] in said
    assert git(repo, "reflog", "--format=%H", "main").splitlines()[1] == tip
    git(repo, "reset", "-q", "--hard", "main@{1}")  # the branch's one reflog step back
    assert log(repo) == ["feat: two", "feat: one", "initial"] and (repo / "one.py").exists()


def test_reword_keeps_the_trailers(repo: Path) -> None:
    sha = kiln_commit(repo, "one.py", "x = 1\n", "feat: one")
    queue.reword(repo, sha, "feat: add one.py")
    [commit] = queue.kiln_commits(repo)
    assert commit.subject == "feat: add one.py" and commit.session == "s1"
    with pytest.raises(QueueRefused, match="empty"):
        queue.reword(repo, commit.sha, "  ")


def test_squash_folds_into_the_commit_before_and_adds_up_tokens_and_cost(repo: Path) -> None:
    kiln_commit(repo, "one.py", "x = 1\n", "feat: one", tokens=100, cost=0.01)
    second = kiln_commit(repo, "two.py", "y = 2\n", "feat: two", tokens=50, cost=0.02)
    queue.squash(repo, second)
    assert log(repo) == ["feat: one", "initial"]
    [commit] = queue.kiln_commits(repo)
    assert commit.trailers["Tokens"] == "150" and commit.cost == "$0.0300"
    assert commit.files == 2
    assert "Squashed in: feat: two" in git(repo, "log", "-1", "--format=%B")


def test_accept_fast_forwards_the_branch_left_and_a_dirty_tree_is_refused(repo: Path) -> None:
    sha = kiln_commit(repo, "one.py", "x = 1\n", "feat: one", branch="kiln/{session}")
    main_before = git(repo, "rev-parse", "main").strip()
    said = queue.accept(repo, sha)
    assert "main now ends at" in said
    assert git(repo, "rev-parse", "main").strip() == sha
    assert main_before in git(repo, "reflog", "--format=%H", "main")
    (repo / "one.py").write_text("x = 2\n")
    with pytest.raises(QueueRefused, match="uncommitted changes"):
        queue.drop(repo, sha)
    assert log(repo)[0] == "feat: one"


def test_dropping_what_a_later_commit_needs_leaves_the_branch_as_it_was(repo: Path) -> None:
    first = kiln_commit(repo, "one.py", "x = 1\n", "feat: one")
    kiln_commit(repo, "one.py", "x = 1\ny = 2\n", "feat: more")
    tip = git(repo, "rev-parse", "HEAD").strip()
    with pytest.raises(QueueRefused, match="the branch is as it was"):
        queue.drop(repo, first)
    assert git(repo, "rev-parse", "HEAD").strip() == tip
    assert git(repo, "status", "--porcelain") == ""
