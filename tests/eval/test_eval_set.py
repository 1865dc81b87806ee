"""Every task of the evaluation set is a real bug: its tests fail as shipped and pass once
its reference `fix.patch` is applied; the checkout kiln sees holds no reference.

Runs each task's own test command on the host (python3 and node, as in the sandbox image).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from agent.local.bundled import REFERENCE_FILES, BundledTask, checkout
from agent.local.evaluate import find_tasks

EVAL_DIR = Path(__file__).parents[2] / "bench" / "eval"
TASKS = find_tasks(EVAL_DIR)


def passes(repo: Path, command: str) -> bool:
    """The task's test command, run on the host in `repo`, exits 0."""
    done = subprocess.run(command, shell=True, cwd=repo, capture_output=True, timeout=60)
    return done.returncode == 0


def test_both_halves_are_big_enough() -> None:
    splits = [split for split, _ in TASKS]
    assert splits.count("tune") >= 11 and splits.count("heldout") >= 11


@pytest.mark.parametrize("task", [t for _, t in TASKS], ids=[f"{s}/{t.name}" for s, t in TASKS])
def test_fails_as_shipped_and_passes_with_the_reference_fix(
    task: BundledTask, tmp_path: Path
) -> None:
    if task.test_command.startswith("node") and shutil.which("node") is None:
        pytest.skip("node is not installed on this host")
    assert task.prompt and task.title and (task.source / "fix.patch").is_file()
    repo = checkout(task, tmp_path / task.name)
    for name in REFERENCE_FILES:
        assert not list(repo.rglob(name)), f"{name} must never reach the repository kiln sees"
    assert not passes(repo, task.test_command)

    patch = (task.source / "fix.patch").resolve()
    subprocess.run(["git", "apply", str(patch)], cwd=repo, check=True, capture_output=True)
    assert passes(repo, task.test_command)
