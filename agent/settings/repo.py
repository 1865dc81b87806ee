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
