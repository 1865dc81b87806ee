"""When the store cannot keep a run's record, its diff is kept as a patch file instead."""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

from agent.vcs.patches import diff_bytes


def keep_patch(repo: Path, session_id: str, diff: str) -> Path | None:
    """Write `diff` where the person finds it again: the repository's `.git/kiln/patches/`
    (beside kiln's ledger, outside the work tree), else the temporary folder; None when
    neither can be written."""
    folders = [Path(tempfile.gettempdir())]
    with contextlib.suppress(Exception):  # not a repository any more: the temp folder
        from agent.vcs.gitcmd import git_dir

        folders.insert(0, git_dir(repo) / "kiln" / "patches")
    for folder in folders:
        target = folder / f"kiln-{session_id}.patch"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            target.write_bytes(diff_bytes(diff))
        except OSError:
            continue
        return target
    return None
