"""Aider and mini-swe-agent on the same scripted fix, installed only for the benchmark.

Each gets the fix in its own format (Aider: one SEARCH/REPLACE reply; mini-swe-agent: one
bash command per reply) from the same scripted server, and runs the same tests. A runner
gives one run at a time (bench_overhead interleaves the agents' runs, so all see the same
load), or a sentence saying exactly why it could not run.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from agent.llm.scripted.server import ScriptedServer
from bench.timed_command import logged_seconds, timed

BENCH_VENV = Path(tempfile.gettempdir()) / "kiln-bench-venv"
TASK = "make the failing test pass"
TEST_COMMAND = "python3 -m unittest"
MakeRepo = Callable[[Path], Path]
Fixed = Callable[[Path], bool]
# (repository, base URL, timing file or None) -> argv
Argv = Callable[[Path, str, Path | None], list[str]]

AIDER_SCRIPT = [
    {
        "text": (
            "The function subtracts; it should add.\n\n"
            "calc.py\n```python\n<<<<<<< SEARCH\n    return a - b\n=======\n"
            "    return a + b\n>>>>>>> REPLACE\n```\n"
        )
    },
    {"text": "The tests pass now."},
]


def _bash(command: str) -> dict[str, object]:
    return {"tool_calls": [{"name": "bash", "arguments": {"command": command}}]}


# mini-swe-agent v2 calls one `bash` tool; the same six steps as kiln's script.
MINI_SCRIPT = [
    _bash("ls"),
    _bash("grep -n 'def add' calc.py"),
    _bash("cat calc.py"),
    _bash("sed -i 's/return a - b/return a + b/' calc.py"),
    _bash(TEST_COMMAND),
    _bash("echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"),
]

# Keep the tools off the internet: no update checks, analytics or price-list downloads.
OFFLINE_ENV = {
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "OPENAI_API_KEY": "scripted",
    "AIDER_ANALYTICS": "false",
    "AIDER_CHECK_UPDATE": "false",
    "MSWEA_CONFIGURED": "true",
    "MSWEA_COST_TRACKING": "ignore_errors",
}


@dataclass
class Measured:
    end_to_end_s: float  # median of untouched runs
    timed_end_to_end_s: float  # median of the timed runs
    command_s: float  # median time inside commands in the timed runs
    command_what: str

    @property
    def overhead_s(self) -> float:
        return self.timed_end_to_end_s - self.command_s


def _one_run(
    make_repo: MakeRepo, fixed: Fixed, script: list[dict[str, object]], argv: list[str], repo: Path
) -> float | str:
    with ScriptedServer(script) as server:
        argv = [a.replace("{BASE_URL}", server.base_url) for a in argv]
        started = time.perf_counter()
        done = subprocess.run(
            argv,
            cwd=repo,
            capture_output=True,
            text=True,
            env={**os.environ, **OFFLINE_ENV},
            timeout=300,
            stdin=subprocess.DEVNULL,
        )
        elapsed = time.perf_counter() - started
        served = len(server.requests)
    if not fixed(repo):
        tail = (done.stdout + done.stderr).strip().splitlines()[-3:]
        return (
            f"it ran (exit {done.returncode}, {served} requests to the scripted server) "
            f"but did not apply the scripted fix: {' | '.join(tail)[:400]}"
        )
    return elapsed


# One run of an agent: with `timed`, also the seconds it spent in commands. A sentence
# says why it could not run at all.
OneRun = Callable[[bool], "tuple[float, float] | str"]


def measured(plain: list[float], timed: list[tuple[float, float]], what: str) -> Measured:
    return Measured(
        statistics.median(plain),
        statistics.median(p[0] for p in timed),
        statistics.median(p[1] for p in timed),
        what,
    )


def _runner(
    make_repo: MakeRepo,
    fixed: Fixed,
    script: list[dict[str, object]],
    argv: Argv,
    read_timing: Callable[[Path], float],
) -> OneRun:
    def one(timing: bool) -> tuple[float, float] | str:
        with tempfile.TemporaryDirectory(prefix="kiln-bench-other-") as tmp:
            repo = make_repo(Path(tmp))
            log = Path(tmp) / "timing" if timing else None
            outcome = _one_run(make_repo, fixed, script, argv(repo, "{BASE_URL}", log), repo)
            if isinstance(outcome, str):
                return outcome
            return outcome, read_timing(log) if log is not None else 0.0

    return one


def _installed(program: str) -> Path | None:
    path = BENCH_VENV / "bin" / program
    return path if path.exists() else None


def aider(make_repo: MakeRepo, fixed: Fixed) -> OneRun | str:
    program = _installed("aider")
    if program is None:
        return f"aider-chat is not installed in {BENCH_VENV} (pip install aider-chat there)"

    def argv(repo: Path, base_url: str, log: Path | None) -> list[str]:
        test = TEST_COMMAND if log is None else timed(TEST_COMMAND, log)
        return [
            str(program), "--model", "openai/scripted", "--openai-api-base", base_url,
            "--openai-api-key", "scripted", "--yes-always", "--no-git", "--no-auto-commits",
            "--no-check-update", "--analytics-disable", "--no-show-model-warnings",
            "--map-tokens", "0", "--no-pretty", "--no-stream", "--edit-format", "diff",
            "--auto-test", "--test-cmd", test,
            "--message", TASK, "calc.py",
        ]  # fmt: skip

    return _runner(make_repo, fixed, AIDER_SCRIPT, argv, logged_seconds)


def mini(make_repo: MakeRepo, fixed: Fixed) -> OneRun | str:
    if _installed("mini") is None:
        return f"mini-swe-agent is not installed in {BENCH_VENV} (pip install mini-swe-agent there)"
    driver = Path(__file__).with_name("mini_driver.py")

    def argv(repo: Path, base_url: str, log: Path | None) -> list[str]:
        python = str(BENCH_VENV / "bin" / "python")
        return [python, str(driver), str(repo), base_url, TASK, *([str(log)] if log else [])]

    def read(log: Path) -> float:
        return float(log.read_text()) if log.exists() else 0.0

    return _runner(make_repo, fixed, MINI_SCRIPT, argv, read)


# What each agent's command time is.
COMMAND_TIME = {
    "Aider": "inside its test runs",
    "mini-swe-agent": "inside its environment's execute()",
}
