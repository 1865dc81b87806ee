"""Whether an apply was cut short in a repository: the check every kiln command makes
before its work, so it must cost next to nothing (two stats in a repository's top folder,
no subprocess, no import beyond `os`). `vcs.journal` does the rest when one is found."""

from __future__ import annotations

import os

JOURNAL = os.path.join("kiln", "apply-journal", "journal.json")  # inside the git directory


def journal_in(start: str) -> str | None:
    """The repository at or above `start` whose apply journal is still there (an apply
    under way, or one whose process died), as its top folder; None for every other case."""
    here = os.path.abspath(start)
    while True:
        dot = os.path.join(here, ".git")
        if os.path.isdir(dot):
            return here if os.path.exists(os.path.join(dot, JOURNAL)) else None
        if os.path.isfile(dot):  # a worktree or a submodule: its git directory is named
            found = _named_git_dir(here, dot)
            return here if found and os.path.exists(os.path.join(found, JOURNAL)) else None
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def _named_git_dir(top: str, dot_git: str) -> str | None:
    try:
        with open(dot_git, encoding="utf-8") as file:
            line = file.readline().strip()
    except (OSError, UnicodeDecodeError):
        return None
    if not line.startswith("gitdir:"):
        return None
    return os.path.join(top, line[len("gitdir:") :].strip())
