"""Must hold: a batch line's `rev` reaches git only as a revision: one starting with '-'
is refused as that line's error before anything starts (it was an option to `git
checkout`: `--orphan=x` ran the task on an empty tree), and a name that is no revision
(a file's) is not checked out as a path."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest

from agent.batch.execute import _checkout
from agent.batch.tasks import TaskSpec
from agent.errors import UsageError
from tests.batch.scenario import KILN
from tests.conftest import make_git_repo


def test_a_rev_starting_with_a_dash_is_that_lines_error(tmp_path: Path) -> None:
    make_git_repo(tmp_path / "repo", {"a.py": "x = 1\n"})
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(
        '{"id": "ok", "repo": "repo", "rev": "HEAD", "task": "t"}\n'
        '{"id": "evil", "repo": "repo", "rev": "--orphan=evil", "task": "t"}\n'
    )
    out = tmp_path / "out"
    done = subprocess.run(
        [KILN, "batch", str(tasks), "--out", str(out)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "line 2: the rev '--orphan=evil' starts with '-'" in done.stderr
    assert not out.exists()  # nothing started


@pytest.mark.parametrize("rev", ["--orphan=evil", "-b"])
def test_checkout_never_hands_git_an_option(tmp_path: Path, rev: str) -> None:
    repo = make_git_repo(tmp_path / "repo", {"a.py": "x = 1\n"})
    spec = TaskSpec(id="t", repo=str(repo), task="t", line=1, rev=rev)
    with pytest.raises(UsageError, match="may not start with '-'"):
        asyncio.run(_checkout(spec, tmp_path / "clone"))


def test_a_rev_is_a_revision_never_a_path(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", {"a.py": "x = 1\n"})
    subprocess.run(["git", "-C", str(repo), "tag", "v1"], check=True)
    spec = TaskSpec(id="t", repo=str(repo), task="t", line=1, rev="v1")
    clone = asyncio.run(_checkout(spec, tmp_path / "clone"))
    assert (clone / "a.py").read_text() == "x = 1\n"
    as_path = TaskSpec(id="t", repo=str(repo), task="t", line=1, rev="a.py")
    with pytest.raises(UsageError, match=r"at a\.py cannot be checked out .*invalid reference"):
        asyncio.run(_checkout(as_path, tmp_path / "clone2"))
