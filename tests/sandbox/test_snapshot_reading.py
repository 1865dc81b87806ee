"""The snapshot's one diff holds what its two diffs held: the changed names (a rename's both,
in git's order) and the very same binary patch."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from sandbox.gitstate import read_snapshot
from tests.conftest import make_git_repo

DIFF = ["--binary", "-M", "--no-color", "--no-ext-diff", "--no-textconv", "HEAD"]


def git(repo: Path, *args: str) -> bytes:
    command = ["git", "-c", "core.quotepath=off", "-C", str(repo), *args]
    return subprocess.run(command, capture_output=True, check=True).stdout


def test_the_names_and_patch_are_those_of_two_diffs(tmp_path: Path) -> None:
    lines = "".join(f"line {n}\n" for n in range(40))
    repo = make_git_repo(
        tmp_path / "r",
        {"edit.txt": "a\nb\n", "old.txt": lines, "run.sh": "#!/bin/sh\n", "gone.txt": "x\n"},
    )
    (repo / "edit.txt").write_text("a\nc\n")
    (repo / "moved").mkdir()
    os.rename(repo / "old.txt", repo / "moved" / "new.txt")
    (repo / "run.sh").chmod(0o755)
    (repo / "gone.txt").unlink()
    (repo / "blob.bin").write_bytes(bytes(range(256)))
    for odd in ("line\nbreak.txt", "tab\there.txt", "moved-2.txt", "space d.txt"):
        (repo / odd).write_text("odd\n")
    (repo / os.fsdecode(b"caf\xe9.txt")).write_text("latin-1 name\n")
    git(repo, "add", "-A")

    out = git(repo, "write-tree") + git(repo, "diff", "--cached", "--raw", "-z", "-p", *DIFF)
    tree, names, patch = read_snapshot(out)

    assert tree == git(repo, "write-tree").decode().strip()
    listed = git(repo, "diff", "--cached", "--name-only", "-z", "--no-renames", "HEAD")
    assert names == [name for name in listed.split(b"\0") if name]
    assert b"old.txt" in names and b"moved/new.txt" in names  # the rename's both names
    assert patch == git(repo, "diff", "--cached", *DIFF)
    assert b"rename from old.txt" in patch


def test_nothing_changed_is_no_names_and_no_patch() -> None:
    assert read_snapshot(b"4b825dc642cb6eb9a060e54bf8d69288fbee4904\n") == (
        "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
        [],
        b"",
    )
