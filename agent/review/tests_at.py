"""`kiln review --run-tests`: the repository's tests run at the reviewed tree, in the
sandbox like every command kiln runs, their digest added to the result."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from agent.boundary import start_sandbox
from agent.settings.config import Settings
from agent.tools.shell import tests_in
from agent.tools.testdigest import detect_test_command, tests_dict
from agent.vcs.gitcmd import run
from sandbox.base import Sandbox


async def tests_at(tree: Path, settings: Settings, session_id: str) -> dict[str, Any] | None:
    """The digest of the tests at `tree`; None when no test command is known there."""
    command = detect_test_command(tree, settings.tests.command)
    if not command:
        return None
    with _standalone(tree) as copy:
        made: list[Sandbox] = []
        notes: list[str] = []
        try:
            box = await start_sandbox(copy, settings, f"{session_id}-tests", made, notes.append)
            return tests_dict(await tests_in(box, command, settings.tests.timeout_s))
        finally:
            for box in made:
                with contextlib.suppress(Exception):
                    await box.close()


@contextlib.contextmanager
def _standalone(tree: Path) -> Iterator[Path]:
    """The sandbox needs a repository of its own (a worktree's .git points outside it):
    a local clone of the tree's commit, or the tree itself when it is a repository."""
    if (tree / ".git").is_dir():
        yield tree
        return
    head = run(tree, "rev-parse", "HEAD").out.strip()
    where = Path(tempfile.mkdtemp(prefix="kiln-review-tests-")) / "tree"
    try:
        run(tree.parent, "clone", "-q", "--no-checkout", str(tree), str(where))
        run(where, "checkout", "-q", "--detach", head)
        yield where
    finally:
        shutil.rmtree(where.parent, ignore_errors=True)
