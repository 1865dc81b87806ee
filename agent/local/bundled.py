"""Small bug-fix repositories shipped with kiln: the demo and the live tests run on them.

Each lives in `agent/local/tasks/<name>/` with its files and a `task.toml` holding the
prompt and the test command. `checkout` turns one into a fresh git repository, the way a
person's project would look: one commit, a failing test, a clean tree. The evaluation sets
in `bench/eval/` use the same layout (`tasks_in`), with a reference `fix.patch` beside the
`task.toml`; neither is ever copied into the repository kiln sees. A task made from a real
project names its package and version instead of holding its files, and keeps the bug it
injects as `bug.patch` (`sources.py`). Exercism's exercises
(`exercism.py`) become the same `BundledTask`, their solution folders left out the same way.
"""

from __future__ import annotations

import fnmatch
import os
import shutil
import subprocess
import tomllib
from pathlib import Path

from agent.errors import UsageError
from agent.local.sources import BUG_PATCH, Package, package_of, prepared
from sandbox.frozen import frozen

TASKS_DIR = Path(__file__).parent / "tasks"
# What belongs to the task's author, not to the repository: the agent never sees these.
# `judge/` holds hidden tests, copied into the result only once the run is over.
REFERENCE_FILES = ("task.toml", "fix.patch", "judge", BUG_PATCH)
JUDGE_DIR = "judge"
# Files a test runner reads as tests (Python, node --test, Go), and folders of them.
TEST_FILE_PATTERNS = ("test_*.py", "*_test.py", "conftest.py", "*.test.js", "*.test.mjs",
                      "*_test.go")  # fmt: skip
TEST_DIRS = ("test", "tests")


@frozen
class BundledTask:
    name: str
    title: str
    prompt: str
    test_command: str
    source: Path
    # What in `source` the agent never sees: the task's reference, or an exercise's solution.
    left_out: tuple[str, ...] = REFERENCE_FILES
    files: tuple[str, ...] = ()  # the files the prompt names for the agent to change, if any
    # A real project fetched by version, its bug in `bug.patch` (sources.py); None: the
    # task's files are in `source`.
    package: Package | None = None


def bundled_tasks() -> list[BundledTask]:
    return tasks_in(TASKS_DIR)


def tasks_in(directory: Path) -> list[BundledTask]:
    """The tasks in `directory`: each sub-folder with a `task.toml`, by name."""
    return [_load(d) for d in sorted(directory.iterdir()) if (d / "task.toml").is_file()]


def bundled_task(name: str) -> BundledTask:
    for task in bundled_tasks():
        if task.name == name:
            return task
    known = ", ".join(t.name for t in bundled_tasks())
    raise UsageError(f"There is no bundled task {name!r}; choose one of {known}.")


def checkout(task: BundledTask, dest: Path) -> Path:
    """Copy `task` into `dest` (created) as a git repository with one commit."""
    tree = prepared(task.package, task.source) if task.package else task.source
    shutil.copytree(tree, dest, ignore=shutil.ignore_patterns(*task.left_out, "__pycache__"))
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "kiln",
        "GIT_AUTHOR_EMAIL": "kiln@localhost",
        "GIT_COMMITTER_NAME": "kiln",
        "GIT_COMMITTER_EMAIL": "kiln@localhost",
    }
    for cmd in (
        ["git", "init", "-q", "-b", "main"],
        ["git", "add", "-A"],
        ["git", "commit", "-q", "-m", f"{task.title} (bundled task {task.name})"],
    ):
        subprocess.run(cmd, cwd=dest, check=True, env=env, capture_output=True)
    return dest


def add_judge(task: BundledTask, repo: Path) -> list[str]:
    """The task's hidden tests (`judge/`), copied to the top of `repo` after the run: the
    request is judged by tests the agent never saw. The names copied."""
    judge = task.source / JUDGE_DIR
    if not judge.is_dir():
        return []
    names = sorted(p.name for p in judge.iterdir() if p.is_file())
    for name in names:
        shutil.copyfile(judge / name, repo / name)
    return names


def is_test_path(path: str) -> bool:
    parts = Path(path).parts
    in_test_dir = any(part in TEST_DIRS for part in parts[:-1])
    return in_test_dir or any(fnmatch.fnmatch(parts[-1], p) for p in TEST_FILE_PATTERNS)


def restore_tests(repo: Path) -> list[str]:
    """Put the checkout's test files back as committed; remove test files added since.

    A run judged on tests it rewrote would be judged on nothing. Returns the paths put
    back or removed (empty when the tests were left alone).
    """
    changed = _git_lines(repo, "diff", "--name-only", "HEAD")
    added = _git_lines(repo, "ls-files", "--others", "--exclude-standard")
    restored = [p for p in changed if is_test_path(p)]
    if restored:
        subprocess.run(["git", "checkout", "HEAD", "--", *restored], cwd=repo, check=True,
                       capture_output=True)  # fmt: skip
    removed = [p for p in added if is_test_path(p)]
    for path in removed:
        (repo / path).unlink()
    return sorted(restored + removed)


def _git_lines(repo: Path, *args: str) -> list[str]:
    proc = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True)
    return [line for line in proc.stdout.splitlines() if line]


def _load(directory: Path) -> BundledTask:
    data = tomllib.loads((directory / "task.toml").read_text(encoding="utf-8"))
    return BundledTask(
        name=directory.name,
        title=str(data["title"]),
        prompt=str(data["prompt"]),
        test_command=str(data["test_command"]),
        source=directory,
        package=package_of(data.get("package"), directory),
    )
