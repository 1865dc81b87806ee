"""`kiln map [--tokens N] [PATH] [--focus FILE...]`: print the repo map of a repository."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from agent.context.index import RepoIndex
from agent.context.repomap import map_of_index
from agent.errors import UsageError


def repository_root(path: Path) -> Path:
    """The top of the git work tree holding `path`, or one sentence saying why not."""
    if not path.exists():
        raise UsageError(f"{path} does not exist; give the path of a git repository.")
    if not path.is_dir():
        raise UsageError(f"{path} is not a directory; give the path of a git repository.")
    try:
        top = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],
            cwd=path,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        raise UsageError(
            f"{path} is not inside a git repository (or git cannot read it); "
            "run kiln map in one or give its path."
        ) from None
    return Path(top)


def main(args: argparse.Namespace) -> int:
    if args.tokens <= 0:
        raise UsageError(f"--tokens must be a positive number, not {args.tokens}.")
    root = repository_root(Path(args.path))
    index = RepoIndex.for_repository(root)
    index.refresh()
    focus = [_relative(root, entry) for entry in args.focus or ()]
    text = map_of_index(index, focus, args.tokens)
    sys.stdout.write(text or "(no definitions found in this repository's source files)\n")
    return 0


def _relative(root: Path, entry: str) -> str:
    """A focus file as a repository path, whether given from here or from the root."""
    candidate = Path(entry)
    if candidate.exists():
        try:
            return candidate.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            pass
    return entry
