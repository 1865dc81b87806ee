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
