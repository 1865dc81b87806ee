"""End to end: the real `kiln` binary in tmux, the scripted model on 127.0.0.1, the Docker
sandbox. An edit is approved with a key press; the file on disk changes only after the
apply key, never before."""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from agent.llm.scripted.server import ScriptedServer
from tests.tui.scripts import CALC, FIXED, calc_repo, fix_calc_turns

pytestmark = pytest.mark.usefixtures("docker_ready")
KILN = Path(sys.executable).with_name("kiln")


class Tmux:
    def __init__(self, socket: str) -> None:
        self.socket = socket

    def __call__(self, *args: str) -> str:
        out = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=True
        )
        return out.stdout

    def start_kiln(self, repo: Path, server: ScriptedServer, *args: str) -> None:
        """The installed `kiln` in a 120x40 terminal, on `repo`, with the scripted model."""
        command = (
            f"cd {shlex.quote(str(repo))} && exec {shlex.quote(str(KILN))} "
            f"{' '.join(args)} --base-url {server.base_url} --model scripted-model"
        )
        self("new-session", "-d", "-s", "kiln", "-x", "120", "-y", "40", command)

    def alive(self) -> bool:
        probe = ["tmux", "-L", self.socket, "has-session", "-t", "kiln"]
        return subprocess.run(probe, capture_output=True).returncode == 0

    def screen(self) -> str:
        return self("capture-pane", "-p", "-t", "kiln")

    def wait_for(self, check: Callable[[str], bool], what: str, timeout: float = 90) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if check(screen):
                return screen
            time.sleep(0.2)
        raise AssertionError(f"timed out waiting for {what}; the screen was:\n{self.screen()}")


def test_kiln_in_tmux_offers_the_diff_and_applies_only_after_the_key(tmp_path: Path) -> None:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (.ci/setup installs it)")
    repo = calc_repo(tmp_path / "repo")
    tmux = Tmux(f"kiln-test-{os.getpid()}")
    with ScriptedServer(fix_calc_turns()) as server:
        tmux.start_kiln(repo, server)
        try:
            tmux.wait_for(lambda s: "ready" in s, "the sandbox to be ready")
            tmux("send-keys", "-t", "kiln", "fix the add test", "Enter")
            tmux.wait_for(lambda s: "Allow this edit" in s, "the edit question")
            tmux("send-keys", "-t", "kiln", "y")
            # The task ends with the diff offered; n keeps it in the sandbox only.
            tmux.wait_for(lambda s: "Write these changes" in s, "the diff offered at the end")
            assert (repo / "calc.py").read_text() == CALC
            tmux("send-keys", "-t", "kiln", "n")
            tmux.wait_for(lambda s: "done · " in s and "Not applied" in s, "the offer declined")
            assert (repo / "calc.py").read_text() == CALC

            tmux("send-keys", "-t", "kiln", "/apply", "Enter")
            tmux.wait_for(lambda s: "Write these changes" in s, "the apply question")
            time.sleep(0.5)
            assert (repo / "calc.py").read_text() == CALC  # still untouched while it asks
            tmux("send-keys", "-t", "kiln", "y")
            tmux.wait_for(lambda s: "Applied to your working tree" in s, "the apply")
            assert (repo / "calc.py").read_text() == FIXED

            tmux("send-keys", "-t", "kiln", "C-c")
            tmux("send-keys", "-t", "kiln", "C-c")
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and tmux.alive():
                time.sleep(0.2)
            assert not tmux.alive(), "Ctrl+C twice should have quit kiln"
        finally:
            subprocess.run(["tmux", "-L", tmux.socket, "kill-server"], capture_output=True)


def _sandboxes_of(repo: Path) -> list[str]:
    found = subprocess.run(
        ["docker", "ps", "-aq", "--filter", f"label=kiln.repo={repo.resolve()}"],
        capture_output=True,
        text=True,
        check=True,
    )
    return found.stdout.split()


def _processes_in(repo: Path) -> list[int]:
    """Processes whose working directory is `repo`: the kiln started there, once tmux,
    which started it, is gone."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if Path(os.readlink(entry / "cwd")) == repo.resolve():
                    found.append(int(entry.name))
    return found


@pytest.mark.parametrize("front_end", [[], ["chat", "--plain"]], ids=["tui", "line-mode"])
def test_closing_the_terminal_removes_the_sandbox(tmp_path: Path, front_end: list[str]) -> None:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (.ci/setup installs it)")
    repo = calc_repo(tmp_path / "repo")
    tmux = Tmux(f"kiln-hup-{os.getpid()}-{len(front_end)}")
    with ScriptedServer(fix_calc_turns()) as server:
        tmux.start_kiln(repo, server, *front_end)
        try:
            tmux.wait_for(lambda s: "Working on" in s, "the session to start")
            assert len(_sandboxes_of(repo)) == 1
        finally:
            # The terminal goes away: every process in it gets SIGHUP.
            subprocess.run(["tmux", "-L", tmux.socket, "kill-server"], capture_output=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (_sandboxes_of(repo) or _processes_in(repo)):
            time.sleep(0.2)
        assert _sandboxes_of(repo) == []
        assert _processes_in(repo) == []  # kiln itself has ended too, not only its sandbox
