"""Must hold: a kiln killed (kill -9) while it writes a change to the working tree leaves it
half written only until the next kiln command there, which finishes the apply or rolls it
back and says which in one sentence. Either way the tree is whole (every byte as before,
or every file applied), the session's record agrees, and nothing of the person's own is
lost: an uncommitted edit, in a file the change touches or elsewhere, an untracked file."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from agent.events import Finished, RunStatus, SessionStarted, StopReason
from agent.llm.base import Message
from agent.store.db import Store
from agent.vcs import ledger
from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import KILN

FILES = 50_000
NOTES_BEFORE = b"kept by the person, not committed\n"  # the tracked file the diff changes


def blob(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def big_diff(files: int) -> str:
    """What the sandbox hands back for a change that edits notes.txt (as the person left
    it, uncommitted), deletes old.txt and adds `files` new files."""
    after, old, zero = b"changed by the model\n", blob(b"old\n"), "0" * 40
    parts = [
        f"diff --git a/notes.txt b/notes.txt\nindex {blob(NOTES_BEFORE)}..{blob(after)} 100644\n"
        f"--- a/notes.txt\n+++ b/notes.txt\n@@ -1 +1 @@\n-{NOTES_BEFORE.decode()}"
        f"+{after.decode()}",
        f"diff --git a/old.txt b/old.txt\ndeleted file mode 100644\nindex {old}.."
        f"{zero}\n--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-old\n",
    ]
    for n in range(files):
        body = f"generated file {n}\n"
        name = f"gen/d{n % 100:02d}/f{n:05d}.txt"
        parts.append(
            f"diff --git a/{name} b/{name}\nnew file mode 100644\n"
            f"index {zero}..{blob(body.encode())}\n--- /dev/null\n+++ b/{name}\n"
            f"@@ -0,0 +1 @@\n+{body}"
        )
    return "".join(parts)


def person_repo(tmp_path: Path) -> Path:
    """A repository with the person's own work in it: an uncommitted edit in a file the
    change touches (notes.txt) and in one it does not (mine.py), an untracked file."""
    repo = make_git_repo(
        tmp_path / "repo", {"notes.txt": "first\n", "old.txt": "old\n", "mine.py": "x = 1\n"}
    )
    (repo / "notes.txt").write_bytes(NOTES_BEFORE)
    (repo / "mine.py").write_text("x = 2  # mine, not committed\n")
    (repo / "scratch.txt").write_text("untracked, mine\n")
    return repo


def tree_state(repo: Path) -> dict[str, str]:
    """Every file of the work tree (not .git) and its content's hash."""
    state = {}
    for folder, dirs, names in os.walk(repo):
        dirs[:] = [d for d in dirs if d != ".git" or folder != str(repo)]
        for name in names:
            path = Path(folder, name)
            state[str(path.relative_to(repo))] = hashlib.sha1(path.read_bytes()).hexdigest()
    return state


def stored_session(repo: Path, diff: str, session: str) -> str:
    store = Store()
    store.record(session, SessionStarted(session, str(repo), "generate", "m", "auto-edit"))
    store.save_state(session, [Message("user", "generate")], diff)
    store.record(session, Finished(RunStatus.DONE, StopReason.DONE, "generated"))
    store.close()
    return session


def written_count(repo: Path) -> int:
    gen = repo / "gen"
    if not gen.is_dir():
        return 0
    return sum(len(os.listdir(d)) for d in os.scandir(gen) if d.is_dir())


def landing(session: str) -> str:
    store = Store()
    try:
        row = store.find(session)
        assert row is not None
        return row.outcome
    finally:
        store.close()


def test_kill_9_in_the_middle_of_a_50000_file_apply_is_rolled_back_by_the_next_command(
    tmp_path: Path,
) -> None:
    repo = person_repo(tmp_path)
    before = tree_state(repo)
    session = stored_session(repo, big_diff(FILES), "journal1")
    assert landing(session) == "done, not applied"

    applying = subprocess.Popen(
        [KILN, "apply", session, "--yes"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    while applying.poll() is None and not 0 < written_count(repo) < FILES:
        time.sleep(0.001)  # polled, not timed: the kill lands while files are being written
    os.kill(applying.pid, signal.SIGKILL)
    applying.wait()
    assert 0 < written_count(repo) < FILES, "killed while writing, not before or after"
    # The person, before any kiln command, fixes a file the apply had written by hand.
    touched = next(p for p in sorted((repo / "gen").rglob("*")) if p.is_file())
    touched.write_text("fixed by hand after the crash\n")

    # Any command, here one that has nothing to do with applying.
    after = subprocess.run([KILN, "sessions", "list"], cwd=repo, capture_output=True, text=True)
    assert after.returncode == 0 and "Traceback" not in after.stderr, after.stderr
    (said,) = after.stderr.splitlines()
    assert "rolled the apply back" in said and f"kiln apply {session}" in said
    assert tree_state(repo) == before  # every byte of the person's, the edits included
    assert not (repo / "gen").exists()
    kept = Path(said.split("is kept in ")[1].rstrip("."))  # and their fix is not lost
    assert (kept / touched.relative_to(repo)).read_text() == "fixed by hand after the crash\n"
    assert landing(session) == "done, not applied" and ledger.entries(repo) == []
    quiet = subprocess.run([KILN, "sessions", "list"], cwd=repo, capture_output=True, text=True)
    assert quiet.stderr == ""  # said once

    again = subprocess.run([KILN, "apply", session, "--yes"], capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert written_count(repo) == FILES and (repo / "notes.txt").read_text().startswith("changed")
    assert (repo / "mine.py").read_text() == "x = 2  # mine, not committed\n"
    assert landing(session) == "done, applied" and [e.session for e in ledger.entries(repo)] == [
        session
    ]


# Begins the journal and writes the whole change, then dies (kill -9) before the ledger.
DIES_AFTER_WRITING = """
import os, signal, sys
from pathlib import Path
from agent.vcs.apply import _write, _read, touched_paths
from agent.vcs.journal import Journal
repo, diff = Path(sys.argv[1]), sys.argv[2]
patches = _read(repo, diff)
journal = Journal.begin(repo, sys.argv[3], diff, touched_paths(patches))
_write(repo, diff, patches, False, journal.lock)
journal.written()
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_an_apply_killed_after_its_last_write_is_finished_and_recorded(tmp_path: Path) -> None:
    repo = person_repo(tmp_path)
    diff = big_diff(20)
    session = stored_session(repo, diff, "journal2")
    died = subprocess.run(
        [sys.executable, "-c", DIES_AFTER_WRITING, str(repo), diff, session],
        capture_output=True,
    )
    assert died.returncode == -signal.SIGKILL and written_count(repo) == 20

    after = subprocess.run([KILN, "undo", "--repo", str(repo)], capture_output=True, text=True)
    said = after.stderr.splitlines()[0]
    assert "has finished that apply and recorded it" in said, after.stderr
    # Finished, then taken back by the command itself: the ledger knew the change set.
    assert after.returncode == 0, after.stderr
    assert not (repo / "gen").exists() and (repo / "notes.txt").read_bytes() == NOTES_BEFORE
    assert landing(session) == "done, applied"
