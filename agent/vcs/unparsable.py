"""A change that leaves a file not parsing is never offered as if it were fine: the files
of a diff that tree-sitter finds broken where the repository's own version parsed (a new
file with a syntax error, an edit that broke one) are one phrase among the flags, so the
person is asked even in full-auto, and `kiln run --apply` writes nothing without
`--apply-flagged`. The new side is read from the sandbox the diff came from."""

from __future__ import annotations

import weakref
from pathlib import Path

from agent.tools.syntax import error_count, language_for
from agent.vcs.patches import parse_patches
from sandbox.base import Sandbox, SandboxError

SHOWN = 4
_LAST: weakref.WeakKeyDictionary[Sandbox, tuple[tuple[str, str], tuple[str, ...]]] = (
    weakref.WeakKeyDictionary()
)


async def unparsable_flags(repo: Path, diff: str, sandbox: Sandbox) -> tuple[str, ...]:
    """One phrase naming the diff's files that no longer parse; () when none."""
    broken = await broken_files(repo, diff, sandbox)
    if not broken:
        return ()
    more = f" and {len(broken) - SHOWN} more" if len(broken) > SHOWN else ""
    names = ", ".join(broken[:SHOWN]) + more
    return (f"leaves {names} not parsing (a syntax error kiln's check found in the result)",)


async def broken_files(repo: Path, diff: str, sandbox: Sandbox) -> list[str]:
    """The diff's files that do not parse in the sandbox where `repo`'s version did (or
    that are new). The run's outcome and its apply both ask about the same diff: the
    answer for a sandbox's last diff is kept (the diff fixes every changed file's bytes)."""
    asked = (str(repo), diff)
    last = _LAST.get(sandbox)
    if last is not None and last[0] == asked:
        return list(last[1])
    broken = await _broken(repo, diff, sandbox)
    _LAST[sandbox] = (asked, tuple(broken))
    return broken


async def _broken(repo: Path, diff: str, sandbox: Sandbox) -> list[str]:
    broken: list[str] = []
    for patch in parse_patches(diff):
        path = patch.new_path
        if not path or patch.symlink_to is not None or language_for(path) is None:
            continue
        try:
            after = await sandbox.read_file(path)
        except (FileNotFoundError, SandboxError):
            continue
        if not error_count(path, after):
            continue
        old = repo / patch.old_path if patch.old_path else None
        before = old.read_bytes() if old is not None and old.is_file() else None
        if before is None or not error_count(path, before):  # it parsed before the change
            broken.append(path)
    return broken
