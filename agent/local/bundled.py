"""Small bug-fix repositories shipped with kiln: the demo and the live tests run on them.

Each lives in `agent/local/tasks/<name>/` with its files and a `task.toml` holding the
prompt and the test command. `checkout` turns one into a fresh git repository, the way a
person's project would look: one commit, a failing test, a clean tree.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path

from agent.errors import UsageError

TASKS_DIR = Path(__file__).parent / "tasks"


@dataclass(frozen=True)
class BundledTask:
    name: str
    title: str
    prompt: str
    test_command: str
    source: Path


def bundled_tasks() -> list[BundledTask]:
    return [_load(d) for d in sorted(TASKS_DIR.iterdir()) if (d / "task.toml").is_file()]


def bundled_task(name: str) -> BundledTask:
    for task in bundled_tasks():
        if task.name == name:
            return task
    known = ", ".join(t.name for t in bundled_tasks())
    raise UsageError(f"There is no bundled task {name!r}; choose one of {known}.")


def checkout(task: BundledTask, dest: Path) -> Path:
    """Copy `task` into `dest` (created) as a git repository with one commit."""
    shutil.copytree(task.source, dest, ignore=shutil.ignore_patterns("task.toml", "__pycache__"))
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


def _load(directory: Path) -> BundledTask:
    data = tomllib.loads((directory / "task.toml").read_text(encoding="utf-8"))
    return BundledTask(
        name=directory.name,
        title=str(data["title"]),
        prompt=str(data["prompt"]),
        test_command=str(data["test_command"]),
        source=directory,
    )
