"""Must hold: `kiln apply SESSION` after the session's repository was moved or deleted ends
in one sentence that says where its changes are, never in a traceback, and loses nothing."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from agent.errors import UsageError
from agent.events import SessionStarted
from agent.llm.base import Message
from agent.session import Session
from agent.settings.config import load_settings
from agent.store.db import Store
from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import KILN
from tests.scripted import ScriptedPerson
from tests.vcs.conftest import GOOD, git, sandbox_like_diff


def stored_session(repo: Path, diff: str, session: str = "moved1") -> str:
    store = Store()
    store.record(session, SessionStarted(session, str(repo), "fix total", "m", "auto-edit"))
    store.save_state(session, [Message("user", "fix total")], diff)
    store.close()
    return session


def test_kiln_apply_after_the_repository_moved_says_where_the_changes_are(
    tmp_path: Path,
) -> None:
    repo = make_git_repo(tmp_path / "shop", {"shop.py": GOOD})
    diff = sandbox_like_diff(repo, "shop.py", GOOD.replace("result = 0", "result = 0.0"))
    session = stored_session(repo, diff)
    moved = repo.rename(tmp_path / "shop-moved")

    done = subprocess.run([KILN, "apply", session], capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
    (line,) = done.stderr.splitlines()
    assert "is no longer there (moved or deleted)" in line and str(repo) in line
    patch = line.split("`git apply ")[1].split("`")[0]
    git(moved, "apply", patch)  # nothing was lost: the person lands it where it is now
    assert "result = 0.0" in (moved / "shop.py").read_text()


def test_resuming_a_session_whose_repository_was_deleted_says_so(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "shop", {"shop.py": GOOD})
    session = stored_session(repo, "", "gone1")
    shutil.rmtree(repo)
    with pytest.raises(UsageError, match="no longer there") as refused:
        Session.load(session, load_settings(tmp_path, env={}), ScriptedPerson())
    assert str(repo) in refused.value.message
