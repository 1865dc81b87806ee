"""Aider and mini-swe-agent on the same scripted fix, installed only for the benchmark.

Each gets the fix in its own format (Aider: one SEARCH/REPLACE reply; mini-swe-agent: one
bash command per reply) from the same scripted server, and runs the same tests. A runner
returns the median seconds end to end, or a sentence saying exactly why it could not run.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from agent.llm.scripted import ScriptedServer

BENCH_VENV = Path(tempfile.gettempdir()) / "kiln-bench-venv"
TASK = "make the failing test pass"
MakeRepo = Callable[[Path], Path]
Fixed = Callable[[Path], bool]

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
    _bash("python3 -m unittest"),
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


def _timed_runs(
    runs: int,
    make_repo: MakeRepo,
    fixed: Fixed,
    script: list[dict[str, object]],
    argv: Callable[[Path, str], list[str]],
) -> float | str:
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="kiln-bench-other-") as tmp:
            repo = make_repo(Path(tmp))
            with ScriptedServer(script) as server:
                started = time.perf_counter()
                done = subprocess.run(
                    argv(repo, server.base_url),
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
            times.append(elapsed)
    return statistics.median(times)


def _installed(program: str) -> Path | None:
    path = BENCH_VENV / "bin" / program
    return path if path.exists() else None


def run_aider(runs: int, make_repo: MakeRepo, fixed: Fixed) -> float | str:
    aider = _installed("aider")
    if aider is None:
        return f"aider-chat is not installed in {BENCH_VENV} (pip install aider-chat there)"

    def argv(repo: Path, base_url: str) -> list[str]:
        return [
            str(aider), "--model", "openai/scripted", "--openai-api-base", base_url,
            "--openai-api-key", "scripted", "--yes-always", "--no-git", "--no-auto-commits",
            "--no-check-update", "--analytics-disable", "--no-show-model-warnings",
            "--map-tokens", "0", "--no-pretty", "--no-stream", "--edit-format", "diff",
            "--auto-test", "--test-cmd", "python3 -m unittest",
            "--message", TASK, "calc.py",
        ]  # fmt: skip

    return _timed_runs(runs, make_repo, fixed, AIDER_SCRIPT, argv)


def run_mini(runs: int, make_repo: MakeRepo, fixed: Fixed) -> float | str:
    mini = _installed("mini")
    if mini is None:
        return f"mini-swe-agent is not installed in {BENCH_VENV} (pip install mini-swe-agent there)"
    driver = Path(__file__).with_name("mini_driver.py")

    def argv(repo: Path, base_url: str) -> list[str]:
        return [str(BENCH_VENV / "bin" / "python"), str(driver), str(repo), base_url, TASK]

    return _timed_runs(runs, make_repo, fixed, MINI_SCRIPT, argv)
