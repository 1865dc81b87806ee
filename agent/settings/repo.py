"""Which repository kiln works on: the one `--repo` (or the current directory) is inside."""

from __future__ import annotations

from pathlib import Path

from agent.errors import UsageError


def find_repo(raw: str) -> Path:
    """The root of the git repository at or above `raw`, as git finds it."""
    path = Path(raw).expanduser().resolve()
    if not path.is_dir():
        raise UsageError(f"{raw} is not a directory; pass --repo PATH to a git repository.")
    for candidate in (path, *path.parents):
        if (candidate / ".git").exists():
            return candidate
    if (path / "HEAD").is_file() and (path / "objects").is_dir() and (path / "refs").is_dir():
        raise UsageError(
            f"{path} is a bare git repository, with no files to work on; clone it first "
            f"(`git clone {path} DIR`) and run kiln there."
        )
    raise UsageError(f"{path} is not inside a git repository; run `git init` there first.")


def still_there(raw: str) -> bool:
    """Whether the repository a stored session worked on is still where it was: the person
    may have moved or deleted it since, and every git command kiln would run in it (the
    flags' hooks folder, the apply itself) needs it there."""
    return (Path(raw) / ".git").exists()


def stored_repo(raw: str, what_to_do: str) -> Path:
    """A stored session's repository, or one sentence saying it is gone and `what_to_do`."""
    if not still_there(raw):
        raise UsageError(
            f"The session's repository {raw} is no longer there (moved or deleted); {what_to_do}"
        )
    return Path(raw)
