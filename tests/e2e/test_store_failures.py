"""Must hold: the session store never costs a run. A lock held by another process is waited
out; held longer, or a damaged or read-only store, is one sentence, `kiln run` still prints
its JSON result, and a diff the store could not keep is kept as a patch file.

Everything is real: the installed `kiln`, the scripted model over HTTP, the Docker sandbox,
and a second process holding `BEGIN EXCLUSIVE` on kiln.db."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agent.llm.scripted.server import ScriptedServer
from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import KILN

CALC = "def add(a, b):\n    return a - b\n"
TESTS = (
    "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n"
    "    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n"
)
# The edit is made first; the lock comes while the sandbox sleeps, as in the issue.
TURNS = [
    {"tool_calls": [{"name": "edit_file", "arguments": {
        "path": "calc.py", "old_text": "return a - b", "new_text": "return a + b"}}]},
    {"tool_calls": [{"name": "run", "arguments": {"command": "sleep 2"}}]},
    {"tool_calls": [{"name": "run_tests", "arguments": {}}]},
    {"tool_calls": [{"name": "finish", "arguments": {"summary": "add adds"}}]},
]  # fmt: skip
# Takes the write lock, says so, holds it for argv[2] seconds (or until killed).
HOLD_LOCK = (
    "import sqlite3, sys, time\n"
    "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
    "db.execute('BEGIN EXCLUSIVE')\n"
    "print('locked', flush=True)\n"
    "time.sleep(float(sys.argv[2]))\n"
    "db.execute('COMMIT')\n"
)


def store_path() -> Path:
    return Path(os.environ["XDG_DATA_HOME"]) / "kiln" / "kiln.db"


def run_with_lock_during_the_run(
    repo: Path, hold_s: float, env: dict[str, str]
) -> tuple[subprocess.CompletedProcess[str], list[dict[str, Any]], subprocess.Popen[str]]:
    """`kiln run --apply` whose store is locked by another process once the edit is made."""
    holder: subprocess.Popen[str] | None = None
    with ScriptedServer(TURNS) as server:
        run = subprocess.Popen(
            [KILN, "run", "fix add", "--repo", str(repo), "--apply", "--approval", "full-auto",
             "--output-format", "stream-json", "--base-url", server.base_url, "--model", "m"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, **env},
        )  # fmt: skip
        assert run.stdout is not None
        lines: list[dict[str, Any]] = []
        for line in run.stdout:
            lines.append(json.loads(line))
            event = lines[-1]
            if event["type"] == "tool_call_started" and event["name"] == "run":
                holder = subprocess.Popen(
                    [sys.executable, "-c", HOLD_LOCK, str(store_path()), str(hold_s)],
                    stdout=subprocess.PIPE, text=True,
                )  # fmt: skip
                assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        _, stderr = run.communicate(timeout=180)
    assert holder is not None, "the run never reached its command"
    done = subprocess.CompletedProcess(run.args, run.returncode, "", stderr)
    return done, lines, holder


def test_a_lock_held_ten_seconds_is_waited_out_and_nothing_is_lost(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})
    done, lines, holder = run_with_lock_during_the_run(repo, 10, {})
    assert holder.wait(timeout=30) == 0  # the lock was held to its end, then let go
    result = lines[-1]
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr
    assert result["type"] == "result" and result["status"] == "done"
    assert result["applied"] == ["calc.py"] and result["store_error"] is None
    assert "a + b" in (repo / "calc.py").read_text()
    # Every event written while the lock was held reached the store, in order, the end too.
    db = sqlite3.connect(store_path())
    stored = [t for (t,) in db.execute(
        "SELECT type FROM events WHERE session_id = ? ORDER BY seq", (result["session_id"],))]  # fmt: skip
    kept = [e["type"] for e in lines if e["type"] not in ("result", "text_delta", "usage_updated")]
    assert [t for t in stored if t != "usage_updated"] == kept
    status = db.execute(
        "SELECT status FROM sessions WHERE id = ?", (result["session_id"],)
    ).fetchone()
    assert status == ("done",)


def test_a_lock_held_past_the_wait_is_one_sentence_and_the_diff_is_kept(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})
    done, lines, holder = run_with_lock_during_the_run(repo, 600, {"KILN_STORE_WAIT_S": "2"})
    try:
        result = lines[-1]
        assert "Traceback" not in done.stderr, done.stderr
        assert result["type"] == "result" and result["status"] == "done"
        assert result["applied"] == ["calc.py"]  # the work itself is not the store's
        assert "stayed locked by another program" in result["store_error"]
        kept = Path(result["patch_kept"])
        assert kept.is_relative_to(repo / ".git" / "kiln")
        assert "+    return a + b" in kept.read_text()
        said = [line for line in done.stderr.splitlines() if "session store" in line]
        assert len(said) == 1 and said[0].startswith("kiln: The session store")
        assert str(kept) in said[0]
    finally:
        holder.kill()
        holder.wait()
    listed = subprocess.run([KILN, "sessions", "list"], capture_output=True, text=True)
    assert listed.returncode == 0, listed.stderr  # the store itself is fine once let go


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """Really read-only, even for root (who ignores modes): immutable where root runs."""
    if os.geteuid() == 0:
        if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode:
            pytest.skip("chattr +i is not supported here")
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(path)], check=True)
    else:
        mode = path.stat().st_mode
        path.chmod(mode & ~0o222)
        try:
            yield
        finally:
            path.chmod(mode)


def an_existing_store() -> Path:
    listed = subprocess.run([KILN, "sessions", "list"], capture_output=True, text=True)
    assert listed.returncode == 0, listed.stderr
    assert store_path().exists()
    return store_path()


def assert_one_sentence(done: subprocess.CompletedProcess[str], words: str) -> None:
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kiln: The session store"), done.stderr
    assert words in lines[0]
    assert done.returncode == 2


def run_json(repo: Path) -> subprocess.CompletedProcess[str]:
    with ScriptedServer(TURNS) as server:
        return subprocess.run(
            [KILN, "run", "fix add", "--repo", str(repo), "--output-format", "json",
             "--base-url", server.base_url, "--model", "m"],
            capture_output=True, text=True, timeout=180,
        )  # fmt: skip


@pytest.mark.parametrize("kind", ["garbage", "read-only file", "read-only folder"])
def test_a_damaged_or_read_only_store_is_one_sentence_and_run_prints_json(
    docker_ready: None, tmp_path: Path, kind: str
) -> None:
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})
    path = an_existing_store()
    if kind == "garbage":
        path.write_bytes(os.urandom(8192))
        guard: contextlib.AbstractContextManager[None] = contextlib.nullcontext()
        words = "is damaged"
    else:
        guard = read_only(path if kind == "read-only file" else path.parent)
        words = "cannot be written"
    with guard:
        listed = subprocess.run([KILN, "sessions", "list"], capture_output=True, text=True)
        assert_one_sentence(listed, words)
        costs = subprocess.run([KILN, "cost"], capture_output=True, text=True)
        assert_one_sentence(costs, words)
        done = run_json(repo)
    assert_one_sentence(done, words)
    result = json.loads(done.stdout)
    assert result["type"] == "result" and words in result["store_error"]
    assert (repo / "calc.py").read_text() == CALC  # nothing was done, nothing half-done
