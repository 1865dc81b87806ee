"""Must hold, on real repositories: kiln never commits on a detached HEAD nor in the middle
of a rebase, merge, cherry-pick or revert (conflicted or not). The commit is refused in one
sentence that says what to do; what was applied stays in the working tree, and HEAD, the
branch and git's operation in progress are as the person left them."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from agent.vcs.commit import CommitFailed, Provenance, commit_last_applied
from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import KILN
from tests.scripted import BUGGY_REPO, FIX_SCRIPT
from tests.vcs.conftest import GIT_ENV, git, land


def detached(repo: Path) -> None:
    git(repo, "switch", "-q", "--detach", "HEAD")


def _side_branch(repo: Path, text: str) -> None:
    """`side` changes a.txt to `text`; main changes it too: the two conflict."""
    git(repo, "switch", "-q", "-c", "side")
    (repo / "a.txt").write_text(text)
    git(repo, "commit", "-qam", "side")
    git(repo, "switch", "-q", "main")
    (repo / "a.txt").write_text("main's\n")
    git(repo, "commit", "-qam", "main")


def conflicted_rebase(repo: Path) -> None:
    _side_branch(repo, "side's\n")
    subprocess.run(["git", "rebase", "side"], cwd=repo, capture_output=True)


def rebase_stopped_at_edit(repo: Path) -> None:
    git(repo, "commit", "-q", "--allow-empty", "-m", "second")
    env = {"GIT_SEQUENCE_EDITOR": "sed -i 's/^pick/edit/'"}
    subprocess.run(["git", "rebase", "-i", "HEAD~1"], cwd=repo, env={**GIT_ENV, **env,
                   "PATH": "/usr/bin:/bin"}, capture_output=True)  # fmt: skip


def conflicted_merge(repo: Path) -> None:
    _side_branch(repo, "side's\n")
    subprocess.run(["git", "merge", "side"], cwd=repo, capture_output=True)


def clean_merge(repo: Path) -> None:
    git(repo, "switch", "-q", "-c", "side")
    (repo / "b.txt").write_text("side's own file\n")
    git(repo, "add", "b.txt")
    git(repo, "commit", "-qm", "side")
    git(repo, "switch", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "--no-commit", "side")


def conflicted_cherry_pick(repo: Path) -> None:
    _side_branch(repo, "side's\n")
    subprocess.run(["git", "cherry-pick", "side"], cwd=repo, capture_output=True)


def operation(repo: Path) -> list[str]:
    """What git keeps of the operation in progress, and the branch HEAD is on."""
    marks = ("rebase-merge", "rebase-apply", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD")
    on = subprocess.run(["git", "symbolic-ref", "-q", "HEAD"], cwd=repo, capture_output=True)
    return [m for m in marks if (repo / ".git" / m).exists()] + [on.stdout.decode().strip()]


STATES: dict[str, tuple[Callable[[Path], None], str]] = {
    "detached HEAD": (detached, "HEAD is detached (on no branch)"),
    "conflicted rebase": (conflicted_rebase, "a rebase is under way"),
    "rebase stopped at an edit": (rebase_stopped_at_edit, "a rebase is under way"),
    "conflicted merge": (conflicted_merge, "a merge is under way"),
    "merge not yet committed": (clean_merge, "a merge is under way"),
    "conflicted cherry-pick": (conflicted_cherry_pick, "a cherry-pick is under way"),
}


@pytest.mark.parametrize("state", STATES)
def test_kiln_does_not_commit_mid_operation_or_on_no_branch(
    state: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    repo = make_git_repo(tmp_path / "repo", {"a.txt": "first\n", "calc.py": "x = 1\n"})
    git(repo, "branch", "-M", "main")
    make, reason = STATES[state]
    make(repo)
    head, under_way = git(repo, "rev-parse", "HEAD"), operation(repo)
    land(repo, "calc.py", "x = 2\n")

    with pytest.raises(CommitFailed) as refused:
        commit_last_applied(repo, "fix: x is 2", Provenance("s1"))
    said = refused.value.message
    assert said.startswith("Not committed") and reason in said and said.count(". ") == 0
    assert (repo / "calc.py").read_text() == "x = 2\n"  # the apply stands
    assert git(repo, "rev-parse", "HEAD") == head and operation(repo) == under_way


def test_kiln_run_apply_commit_on_a_detached_head_applies_and_says_why_not_committed(
    docker_ready: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent.llm.scripted.server import ScriptedServer

    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    repo = make_git_repo(tmp_path / "repo", BUGGY_REPO)
    detached(repo)
    head = git(repo, "rev-parse", "HEAD")
    with ScriptedServer([*FIX_SCRIPT, {"text": "fix: make add add"}]) as server:
        done = subprocess.run(
            [KILN, "run", "fix the add function", "--repo", str(repo), "--base-url",
             server.base_url, "--model", "m", "--apply", "--commit"],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    assert (repo / "calc.py").read_text().endswith("a + b\n")  # applied
    assert git(repo, "rev-parse", "HEAD") == head  # not committed
    assert "Not committed" in done.stderr and "HEAD is detached" in done.stderr
