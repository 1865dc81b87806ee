"""The disk quota: what a sandbox's commands may write to the host's disk.

Everything a command writes lands under the sandbox's state dir (the overlay's upper dir or
the copy, kiln's git dir) or in the container's /tmp and /var/tmp, tmpfs whose pages are
the container's memory, so each is a quarter of the memory limit at most (and never more
than the disk limit). Two guards share one limit:
- the kernel's file size limit (RLIMIT_FSIZE) stops any single file at the limit exactly,
  so `yes > big` ends there on its own;
- while a command runs, the state dir's usage is measured every so often, and the command
  is stopped once it has grown the workspace past the limit (many files, each smaller;
  sandbox/common.py watches it, with `scan` and `DiskQuotaHit` from here).
The session goes on: the model is told, and may delete what it wrote. Between commands,
sandbox/idle_watch.py measures the same state dir.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

from sandbox.frozen import frozen


@frozen
class Usage:
    """The disk a tree occupies, and the big files in the workspace."""

    used: int  # bytes of disk the files under the root occupy (hard links once)
    big: frozenset[str]  # files under `big_in` over `big_bytes`, relative to it


def scan(root: Path, big_in: Path | None = None, big_bytes: int = 0) -> Usage:
    """Walk `root` once: its disk usage, and the big files under `big_in` (the workspace)."""
    total = 0
    big: set[str] = set()
    seen: set[tuple[int, int]] = set()
    prefix = f"{big_in}/" if big_in is not None else ""
    for entry in _entries(root):
        try:
            if entry.is_dir(follow_symlinks=False):
                continue
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if info.st_nlink > 1:
            key = (info.st_dev, info.st_ino)
            if key in seen:
                continue
            seen.add(key)
        total += info.st_blocks * 512
        is_big = info.st_size > big_bytes and stat.S_ISREG(info.st_mode)
        if prefix and is_big and entry.path.startswith(prefix):
            big.add(entry.path.removeprefix(prefix))
    return Usage(total, frozenset(big))


def holds_big_file(root: Path, big_bytes: int, most: int) -> bool | None:
    """Whether a regular file under `root` is over `big_bytes`; None when `root` holds
    more than `most` entries, too many to look through at once."""
    for seen, entry in enumerate(_entries(root), 1):
        if seen > most:
            return None
        try:
            if entry.is_file(follow_symlinks=False) and (
                entry.stat(follow_symlinks=False).st_size > big_bytes
            ):
                return True
        except OSError:
            continue
    return False


def _entries(root: Path) -> Iterator[os.DirEntry[str]]:
    """Every entry under `root`, folders too, depth first; no link is followed, and a
    folder that vanished meanwhile, or is not ours to read, is passed over."""
    stack = [str(root)]
    while stack:
        try:
            entries = os.scandir(stack.pop())
        except OSError:
            continue
        with entries:
            for entry in entries:
                yield entry
                try:
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
                except OSError:
                    continue


class DiskQuotaHit(Exception):
    """The command was stopped because the workspace grew past the limit."""

    def __init__(self, used: int) -> None:
        super().__init__(used)
        self.used = used


def human_bytes(n: int) -> str:
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}".replace(".0 ", " ")
    return f"{n} bytes"
