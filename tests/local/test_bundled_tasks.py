"""Every bundled task is a real bug: its tests fail as shipped and pass after a one-line fix."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from agent.errors import UsageError
from agent.local.bundled import bundled_task, bundled_tasks, checkout

# One reference fix per task (file, buggy text, fixed text): proves each is solvable.
FIXES = {
    "temperature": ("temperature.py", "9 / 5 - 32", "9 / 5 + 32"),
    "inventory": (
        "inventory.py",
        "self.items[name] = quantity",
        "self.items[name] = self.items.get(name, 0) + quantity",
    ),
    "fizzbuzz": (
        "fizzbuzz.py",
        '    if n % 3 == 0:\n        return "Fizz"\n',
        '    if n % 15 == 0:\n        return "FizzBuzz"\n    if n % 3 == 0:\n        return "Fizz"\n',
    ),
    "palindrome": (
        "palindrome.py",
        "return text == text[::-1]",
        'text = text.lower().replace(" ", "")\n    return text == text[::-1]',
    ),
    "word_count": ("words.py", "ranked[: n - 1]", "ranked[:n]"),
}


def _tests_pass(repo: Path, command: str) -> bool:
    result = subprocess.run(command, shell=True, cwd=repo, capture_output=True, timeout=60)
    return result.returncode == 0


def test_there_are_enough_tasks_and_each_has_a_reference_fix() -> None:
    names = [t.name for t in bundled_tasks()]
    assert len(names) >= 4
    assert sorted(names) == sorted(FIXES)


@pytest.mark.parametrize("name", sorted(FIXES))
def test_a_task_fails_as_shipped_and_passes_once_fixed(name: str, tmp_path: Path) -> None:
    task = bundled_task(name)
    repo = checkout(task, tmp_path / name)
    assert not (repo / "task.toml").exists()
    status = subprocess.run(["git", "status", "--porcelain"], cwd=repo, capture_output=True)
    assert status.stdout == b"", "a fresh checkout must be a clean tree"
    assert not _tests_pass(repo, task.test_command)

    file, buggy, fixed = FIXES[name]
    source = (repo / file).read_text()
    assert source.count(buggy) == 1
    (repo / file).write_text(source.replace(buggy, fixed))
    assert _tests_pass(repo, task.test_command)


def test_an_unknown_task_names_the_known_ones() -> None:
    with pytest.raises(UsageError, match="choose one of fizzbuzz, inventory"):
        bundled_task("nope")
