"""The real-shaped requests (`bench/eval/realshaped/`, written by someone who saw neither
kiln's prompts nor its code): no failing test in the repository kiln sees, its own tests
passing; the hidden judge (`judge/`) never reaches that checkout, fails on it as shipped,
and passes once the reference `fix.patch` is applied, its own tests still passing.

Runs each task's own test command on the host, as `test_eval_set.py` does: the code is
the task author's, not a model's."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from agent.local.bundled import JUDGE_DIR, BundledTask, add_judge, checkout
from agent.local.evaluate import find_tasks
from tests.eval.test_eval_set import passes

SET = Path(__file__).parents[2] / "bench" / "eval" / "realshaped"
TASKS = find_tasks(SET)


def test_both_halves_hold_ten() -> None:
    splits = [split for split, _ in TASKS]
    assert splits.count("tune") >= 10 and splits.count("heldout") >= 10


@pytest.mark.parametrize("task", [t for _, t in TASKS], ids=[f"{s}/{t.name}" for s, t in TASKS])
def test_the_judge_fails_as_shipped_and_passes_with_the_reference_fix(
    task: BundledTask, tmp_path: Path
) -> None:
    repo = checkout(task, tmp_path / "shipped")
    assert not list(repo.rglob(JUDGE_DIR)) and not list(repo.rglob("fix.patch"))
    assert passes(repo, task.test_command), "its own tests pass: there is no failing test"
    assert add_judge(task, repo)
    assert not passes(repo, task.test_command), "the hidden judge fails as shipped"

    fixed = checkout(task, tmp_path / "fixed")
    patch = (task.source / "fix.patch").resolve()
    subprocess.run(["git", "apply", str(patch)], cwd=fixed, check=True, capture_output=True)
    add_judge(task, fixed)
    assert passes(fixed, task.test_command)
