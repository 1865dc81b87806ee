"""The batch the tests run: four small real repositories with a failing test, each with its
own scripted model server (its line's `model.base_url`), and the `kiln batch` command."""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from agent.llm.scripted.server import ScriptedServer
from tests.conftest import make_git_repo
from tests.scripted import BUGGY_REPO, FIX_SCRIPT

KILN = str(Path(sys.executable).parent / "kiln")
IDS = ("alpha", "bravo", "charlie", "delta")


def slow(script: list[dict[str, Any]], delay_s: float) -> list[dict[str, Any]]:
    """The same fix, its first reply held back `delay_s` (so a kill finds it running)."""
    first = {**script[0], "fault": "slow_first_token", "delay_s": delay_s}
    return [first, *script[1:]]


class Batch:
    """Repositories, a TASKS file and one server per task, on ports kept across reruns."""

    def __init__(
        self,
        root: Path,
        delays: dict[str, float] | None = None,
        scripts: dict[str, list[dict[str, Any]]] | None = None,
        ids: tuple[str, ...] = IDS,
    ) -> None:
        self.root = root
        self.ids = ids
        self.scripts = scripts or {}
        self.out = root / "out"
        self.tasks = root / "tasks.jsonl"
        self.delays = delays or {}
        self.repos = {i: make_git_repo(root / "repos" / i, BUGGY_REPO) for i in ids}
        self.servers: dict[str, ScriptedServer] = {}
        self.ports: dict[str, int] = {}

    def script(self, task_id: str) -> list[dict[str, Any]]:
        delay = self.delays.get(task_id)
        script = self.scripts.get(task_id, FIX_SCRIPT)
        return slow(script, delay) if delay else list(script)

    @contextlib.contextmanager
    def serving(self) -> Iterator[Batch]:
        """Fresh servers (a rerun starts each script over) on the same ports."""
        with contextlib.ExitStack() as stack:
            for task_id in self.ids:
                server = ScriptedServer(self.script(task_id), port=self.ports.get(task_id, 0))
                self.servers[task_id] = stack.enter_context(server)
                self.ports[task_id] = server.port
            self.write_tasks()
            yield self

    def write_tasks(self, changes: dict[str, dict[str, Any]] | None = None) -> None:
        """One line per task; `changes` replaces keys of some lines."""
        changes = changes or {}
        lines = [
            {
                "id": task_id,
                "repo": str(self.repos[task_id]),
                "task": "make the tests pass",
                "model": {"base_url": self.servers[task_id].base_url, "model": f"m-{task_id}"},
                **changes.get(task_id, {}),
            }
            for task_id in self.ids
        ]
        self.tasks.write_text("".join(json.dumps(line) + "\n" for line in lines))

    def command(self, *extra: str) -> list[str]:
        return [KILN, "batch", str(self.tasks), "--out", str(self.out), *extra]

    def start(
        self, *extra: str, busy: int, env: dict[str, str] | None = None
    ) -> subprocess.Popen[str]:
        """The driver as a process, returned once `busy` tasks have asked their model."""
        driver = subprocess.Popen(
            self.command(*extra), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=env,
        )  # fmt: skip
        deadline = time.monotonic() + 120
        while sum(bool(self.servers[i].chat_requests) for i in self.ids) < busy:
            if driver.poll() is not None or time.monotonic() > deadline:
                driver.kill()
                raise AssertionError(f"the batch never had {busy} running: {driver.communicate()}")
            time.sleep(0.05)
        return driver

    @staticmethod
    def press_ctrl_c_twice(driver: subprocess.Popen[str], timeout_s: float = 30) -> str:
        """Ctrl+C, and again once the driver has said it is stopping, as a person would.
        Two signals sent blind may reach a process not yet scheduled as one (a second
        SIGINT still pending merges with the first). What the driver said on the way."""
        driver.send_signal(signal.SIGINT)
        said, deadline = b"", time.monotonic() + timeout_s
        assert driver.stderr is not None
        while b"stopping:" not in said and time.monotonic() < deadline:
            if select.select([driver.stderr], [], [], 0.1)[0]:
                said += os.read(driver.stderr.fileno(), 4096)
        driver.send_signal(signal.SIGINT)
        return said.decode()

    def run(self, *extra: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
        return subprocess.run(self.command(*extra), capture_output=True, text=True, timeout=timeout)

    def lines(self) -> list[dict[str, Any]]:
        path = self.out / "results.jsonl"
        return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def leftovers(label: str, wait_s: float = 15.0) -> tuple[list[str], list[str]]:
    """Containers and volumes (any state) that carry `label`, once the reaper that a
    closing sandbox starts (a detached process) has had `wait_s` to remove them."""
    deadline = time.monotonic() + wait_s
    while True:
        found = _labelled(label)
        if found == ([], []) or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def _labelled(label: str) -> tuple[list[str], list[str]]:
    containers = subprocess.run(
        ["docker", "ps", "-aq", "--filter", f"label={label}"], capture_output=True, text=True
    ).stdout.split()
    volumes = subprocess.run(
        ["docker", "volume", "ls", "-q", "--filter", f"label={label}"],
        capture_output=True, text=True,
    ).stdout.split()  # fmt: skip
    return containers, volumes


def check_solved_batch(batch: Batch) -> list[dict[str, Any]]:
    """What every good run of the four tasks leaves in DIR."""
    lines = batch.lines()
    assert sorted(line["id"] for line in lines) == sorted(IDS)  # 4 lines, no id twice
    for line in lines:
        assert line["status"] == "solved" and line["stop_reason"] == "done", line
        assert line["tests_before"]["failed"] == 1 and line["tests_after"]["ok"] is True
        assert line["tokens"]["output"] > 0 and line["session_id"]
        assert line["model"] == f"m-{line['id']}"  # each line's own model and server
        patch = (batch.out / line["patch"]).read_text()
        assert "+    return a + b" in patch and "-    return a - b" in patch
    patches = sorted(p.name for p in (batch.out / "patches").glob("*.patch"))
    assert patches == sorted(f"{i}.patch" for i in IDS)
    preds = json.loads((batch.out / "preds.json").read_text())
    assert sorted(preds) == sorted(IDS)
    for task_id, pred in preds.items():
        assert set(pred) == {"instance_id", "model_name_or_path", "model_patch"}
        assert pred["instance_id"] == task_id and pred["model_name_or_path"] == f"m-{task_id}"
        assert pred["model_patch"] == (batch.out / "patches" / f"{task_id}.patch").read_text()
        applies = subprocess.run(
            ["git", "apply", "--check", "-"], input=pred["model_patch"], text=True,
            cwd=batch.repos[task_id], capture_output=True,
        )  # fmt: skip
        assert applies.returncode == 0, applies.stderr
    for task_id in IDS:  # the repositories themselves were not written (no --apply)
        assert (batch.repos[task_id] / "calc.py").read_text().endswith("a - b\n")
    return lines
