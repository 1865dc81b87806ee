"""Real repositories in temp dirs for the git workflows: kiln review, commit, undo."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import make_git_repo

GIT_ENV = {
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e",
    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e",
}  # fmt: skip

GOOD = """def total(prices):
    \"\"\"The sum of the prices.\"\"\"
    result = 0
    for price in prices:
        result += price
    return result


def average(prices):
    return total(prices) / len(prices)
"""

# The second commit breaks total(): it skips the first price.
BROKEN = GOOD.replace("for price in prices:", "for price in prices[1:]:")


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=repo, capture_output=True, text=True, env={**os.environ, **GIT_ENV}
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def commit_file(repo: Path, path: str, text: str, message: str) -> str:
    (repo / path).parent.mkdir(parents=True, exist_ok=True)
    (repo / path).write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


@pytest.fixture
def buggy_repo(tmp_path: Path) -> Path:
    """Two commits: a working shop.py, then one that breaks total() on line 4."""
    repo = make_git_repo(tmp_path / "shop", {"shop.py": GOOD, "README.md": "shop\n"})
    commit_file(repo, "shop.py", BROKEN, "total: start from the second price")
    return repo


def sandbox_like_diff(repo: Path, path: str, text: str) -> str:
    """The diff the sandbox would hand back for writing `text` to `path` (binary, with blob
    ids), made by changing the file, diffing and changing it back."""
    target = repo / path
    before = target.read_text() if target.exists() else None
    target.write_text(text)
    git(repo, "add", "-N", path)
    diff = git(repo, "diff", "--binary", "--", path)
    if before is None:
        git(repo, "rm", "-q", "--cached", path)
        target.unlink()
    else:
        target.write_text(before)
    return diff


def land(repo: Path, path: str, text: str, session: str = "s1") -> list[str]:
    """What /apply does on the host: write the change, and remember it in the ledger."""
    from agent.vcs.apply import apply_to_host_sync
    from agent.vcs.landing import remember

    diff = sandbox_like_diff(repo, path, text)
    paths = apply_to_host_sync(repo, diff)
    remember(repo, session, diff, paths)
    return paths
