"""What the apply journal costs: an apply of a large change with the journal against the
same apply without it, in the same run.

Run: .venv/bin/python bench/bench_apply_journal.py [--files 50000] [--runs 3]

Two changes, each on a fresh repository per run:
  add       the diff adds --files new files (nothing to keep: the journal lists them)
  change    the diff changes --files tracked files, a tenth of them with the person's
            uncommitted edit (their pre-images are written as blobs, the rest are in git)
"with journal" is `apply_to_host_sync` as kiln runs it (journal written and fsynced, git
apply, the written mark, the ledger, the journal removed); "without" is the same checks
and the same `git apply` with no journal and no ledger. Each repository's set-up is synced
to disk before the clock starts, or the journal's fsyncs would pay for it. Medians of
--runs; the ratio is with / without. Numbers are printed, never asserted.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agent.vcs.apply import (  # noqa: E402
    _read,
    _write,
    apply_to_host_sync,
    host_conflicts,
    unsafe_paths,
)

ENV = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@e"}
ENV |= {"GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@e"}


def blob(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def name(n: int) -> str:
    return f"src/d{n % 200:03d}/f{n:05d}.txt"


def added(files: int) -> str:
    zero, parts = "0" * 40, []
    for n in range(files):
        body = f"file {n}\n"
        parts.append(
            f"diff --git a/{name(n)} b/{name(n)}\nnew file mode 100644\n"
            f"index {zero}..{blob(body.encode())}\n--- /dev/null\n+++ b/{name(n)}\n"
            f"@@ -0,0 +1 @@\n+{body}"
        )
    return "".join(parts)


def changed(files: int) -> str:
    parts = []
    for n in range(files):
        old, new = _before(n), f"file {n}, changed\n"
        parts.append(
            f"diff --git a/{name(n)} b/{name(n)}\nindex {blob(old.encode())}..{blob(new.encode())}"
            f" 100644\n--- a/{name(n)}\n+++ b/{name(n)}\n@@ -1 +1 @@\n-{old}+{new}"
        )
    return "".join(parts)


def _before(n: int) -> str:
    return f"file {n}, the person's edit\n" if n % 10 == 0 else f"file {n}\n"


def fresh_repo(where: Path, files: int, tracked: bool) -> Path:
    repo = where / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    (repo / "README").write_text("bench\n")
    if tracked:
        for n in range(files):
            path = repo / name(n)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"file {n}\n")
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    subprocess.run(["git", "commit", "-qm", "base"], cwd=repo, check=True, env=ENV)
    if tracked:  # the person's uncommitted edits
        for n in range(0, files, 10):
            (repo / name(n)).write_text(_before(n))
    return repo


def without_journal(repo: Path, diff: str) -> None:
    patches = _read(repo, diff)
    assert not unsafe_paths(repo, patches) and not host_conflicts(repo, patches)
    with open(repo / ".git" / "bench.lock", "w") as lock:
        _write(repo, diff, patches, False, lock.fileno())


def with_journal(repo: Path, diff: str) -> None:
    apply_to_host_sync(repo, diff, session="bench")


def timed(apply: Callable[[Path, str], None], files: int, tracked: bool, diff: str) -> float:
    with tempfile.TemporaryDirectory(prefix="kiln-bench-journal-") as tmp:
        repo = fresh_repo(Path(tmp), files, tracked)
        os.sync()  # the set-up's writes on disk: an fsync of the journal's must not pay them
        start = time.perf_counter()
        apply(repo, diff)
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    for label, make, tracked in (("add", added, False), ("change", changed, True)):
        diff = make(args.files)
        plain, journalled = [], []
        for _ in range(args.runs):  # interleaved, so a slower moment weighs on both
            plain.append(timed(without_journal, args.files, tracked, diff))
            journalled.append(timed(with_journal, args.files, tracked, diff))
        without, with_ = statistics.median(plain), statistics.median(journalled)
        print(
            f"{label:<7} {args.files} files: without journal {without:.2f}s, "
            f"with journal {with_:.2f}s, ratio {with_ / without:.2f}x"
        )


if __name__ == "__main__":
    main()
