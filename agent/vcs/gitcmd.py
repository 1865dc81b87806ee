"""git through gitpython, as the commit, undo and queue code needs it: the exit status and
both streams, never an exception for a refusal (the caller words that in one sentence).

gitpython is imported on the first such command: a run that commits nothing never pays for
its import (the slowest of a run's) and the two `git version` processes it starts."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

from sandbox.frozen import frozen


@frozen
class Done:
    """One git command's exit status and both its streams."""

    code: int
    out: str
    err: str

    @property
    def ok(self) -> bool:
        return self.code == 0

    @property
    def reason(self) -> str:
        """The last line git printed, for a sentence about why it refused."""
        lines = [s.strip() for s in (self.err or self.out).strip().splitlines() if s.strip()]
        return lines[-1] if lines else "no reason given"


def run(
    repo: Path,
    *args: str,
    env: dict[str, str] | None = None,
    base_env: Mapping[str, str] | None = None,
) -> Done:
    """`env` adds to the process's environment, or to `base_env`, the whole environment
    (for a git that runs hooks: they get only what kiln hands on)."""
    if base_env is not None:
        # gitpython always starts from os.environ; a variable left out must stay out.
        done = subprocess.run(
            ["git", *args], cwd=repo, env={**base_env, **(env or {})}, capture_output=True
        )
        decoded = (done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace"))
        return Done(done.returncode, *decoded)
    import git

    runner = git.Git(str(repo))
    code, out, err = runner.execute(
        ["git", *args],
        with_extended_output=True,
        with_exceptions=False,
        strip_newline_in_stdout=False,
        env={**os.environ, **(env or {})} if env else None,
    )
    return Done(int(code or 0), str(out), str(err))


def git_dir(repo: Path) -> Path:
    """The repository's git directory (a worktree's own too). A `.git` folder at the top
    of `repo` is it; else git is asked, since `GIT_DIR`, a `.git` file (a worktree, a
    submodule) or a subfolder may put it anywhere."""
    here = repo / ".git"
    if "GIT_DIR" not in os.environ and here.is_dir() and not here.is_symlink():
        return here.absolute()
    done = subprocess.run(["git", "rev-parse", "--absolute-git-dir"], cwd=repo, capture_output=True)
    found = os.fsdecode(done.stdout).strip()
    return Path(found) if found else repo / ".git"
