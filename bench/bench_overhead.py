"""kiln's own overhead on a scripted 6-step fix, against Aider and mini-swe-agent in the same run.

Run: .venv/bin/python bench/bench_overhead.py [--runs 5] [--timed-runs 3] [--skip-others]

The model is the scripted server on 127.0.0.1 answering instantly, so what is left is each
agent's own cost plus the commands it runs. The agents' runs are interleaved (kiln, Aider,
mini-swe-agent, kiln, ...), so a change in the machine's load falls on all of them alike.
For every agent:
  end to end    = process start to exit of untouched runs (median of --runs)
  command time  = in separate timed runs (median of --timed-runs), the time spent running
                  commands: for kiln the union of the intervals inside Sandbox calls
                  (container start and stop, commands, file reads/writes, diffs,
                  checkpoints) of `kiln run` itself (bench/kiln_timed.py); for
                  mini-swe-agent the time inside its environment's execute(); for Aider
                  the time inside its test runs
  own overhead  = the timed runs' end to end - command time (median of each)
Aider and mini-swe-agent are installed from PyPI into a separate venv under /tmp (never a
dependency of kiln), pointed at the same scripted server with the same fix written in their
own formats; pip compiled their bytecode, and kiln's is compiled first as an install's would
be (bench/bytecode.py). kiln runs from a venv of its own too, holding only its dependencies
(bench/kiln_install.py), not from the development venv with its extras. Target: kiln at least 6x faster end to end than both, its own
overhead under 0.25 s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agent.llm.scripted.server import ScriptedServer  # noqa: E402
from bench.bytecode import compile_kiln  # noqa: E402
from bench.kiln_install import installed_kiln  # noqa: E402
from bench.overhead_others import (  # noqa: E402
    COMMAND_TIME,
    Measured,
    OneRun,
    aider,
    measured,
    mini,
)

TASK = "make the failing test pass"
REPO_FILES = {
    "calc.py": "def add(a, b):\n    return a - b\n",
    "test_calc.py": (
        "import unittest\n\nfrom calc import add\n\n\n"
        "class TestAdd(unittest.TestCase):\n"
        "    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n"
    ),
}


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


KILN_SCRIPT = [
    {"text": "Looking around.", **call("list_files")},
    call("search", pattern="def add"),
    call("read_file", path="calc.py"),
    call("edit_file", path="calc.py", old_text="return a - b", new_text="return a + b"),
    call("run_tests"),
    call("finish", summary="add() adds."),
]


def make_repo(parent: Path) -> Path:
    repo = parent / "repo"
    repo.mkdir()
    for name, text in REPO_FILES.items():
        (repo / name).write_text(text)
    git = ["git", "-c", "user.name=b", "-c", "user.email=b@e"]
    subprocess.run([*git, "init", "-q", "-b", "main"], cwd=repo, check=True)
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-qm", "start"], cwd=repo, check=True)
    return repo


def fixed(repo: Path) -> bool:
    return "a + b" in (repo / "calc.py").read_text()


def kiln_argv(repo: Path, base_url: str) -> list[str]:
    return [
        "run", TASK, "--repo", str(repo), "--base-url", base_url, "--model", "scripted",
        "--apply", "--output-format", "json",
    ]  # fmt: skip


def kiln_once(workdir: Path, timing: Path | None) -> float:
    """One `kiln run` (or, with `timing`, the same run with its sandbox calls timed)."""
    repo = make_repo(workdir)
    python = installed_kiln()
    launcher = (
        [str(python.with_name("kiln"))]
        if timing is None
        else [str(python), str(ROOT / "bench" / "kiln_timed.py"), str(timing)]
    )
    with ScriptedServer(KILN_SCRIPT) as server:
        started = time.perf_counter()
        done = subprocess.run(
            [*launcher, *kiln_argv(repo, server.base_url)], capture_output=True, text=True
        )
        elapsed = time.perf_counter() - started
    if done.returncode != 0 or not fixed(repo):
        raise SystemExit(f"kiln run failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return elapsed


def kiln_run(timing: bool) -> tuple[float, float]:
    """One kiln run: its end to end; timed, also the time inside its sandbox calls (whose
    totals per call go to KILN_CALLS)."""
    with tempfile.TemporaryDirectory(prefix="kiln-bench-") as tmp:
        log = Path(tmp) / "timing.json" if timing else None
        elapsed = kiln_once(Path(tmp), log)
        if log is None:
            return elapsed, 0.0
        report = json.loads(log.read_text())
        for name, seconds in report["by_call"].items():
            KILN_CALLS.setdefault(name, []).append(seconds)
        return elapsed, report["sandbox_s"]


KILN_CALLS: dict[str, list[float]] = {}


def measure_all(runs: int, timed_runs: int, skip_others: bool) -> dict[str, Measured | str]:
    """Every agent's runs interleaved (kiln, Aider, mini-swe-agent, kiln, ...): untouched
    runs first, then the timed ones, so a change in the machine's load falls on all."""
    agents: dict[str, OneRun | str] = {"kiln": kiln_run}
    if not skip_others:
        agents["Aider"] = aider(make_repo, fixed)
        agents["mini-swe-agent"] = mini(make_repo, fixed)
    plain: dict[str, list[float]] = {name: [] for name in agents}
    timed: dict[str, list[tuple[float, float]]] = {name: [] for name in agents}
    failed: dict[str, str] = {n: why for n, why in agents.items() if isinstance(why, str)}
    for timing in [False] * runs + [True] * timed_runs:
        for name, one in agents.items():
            if name in failed or isinstance(one, str):
                continue
            outcome = one(timing)
            if isinstance(outcome, str):
                failed[name] = outcome
            elif timing:
                timed[name].append(outcome)
            else:
                plain[name].append(outcome[0])
    what = {"kiln": "inside Sandbox calls", **COMMAND_TIME}
    return {
        name: failed.get(name) or measured(plain[name], timed[name], what[name]) for name in agents
    }


def row(name: str, m: Measured) -> str:
    return (
        f"{name:<15} {m.end_to_end_s:>9.3f}s {m.timed_end_to_end_s:>9.3f}s "
        f"{m.command_s:>9.3f}s {m.overhead_s:>9.3f}s   ({m.command_what})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--timed-runs", type=int, default=3)
    parser.add_argument("--skip-others", action="store_true")
    args = parser.parse_args()

    compile_kiln(ROOT)
    results = measure_all(args.runs, args.timed_runs, args.skip_others)
    kiln = results.pop("kiln")
    if isinstance(kiln, str):
        raise SystemExit(kiln)
    calls = ", ".join(f"{k} {statistics.median(v):.3f}s" for k, v in KILN_CALLS.items())
    print(f"kiln's sandbox calls (median of the timed runs): {calls}")
    others = results
    print(
        f"\n{'':<15} {'end to end':>10} {'timed run':>10} {'commands':>10} {'overhead':>10}"
        f"   (end to end: median of {args.runs}; the rest: median of {args.timed_runs} timed runs)"
    )
    print(row("kiln", kiln))
    verdict = "meets" if kiln.overhead_s < 0.25 else "MISSES"
    print(f"{'':<15} kiln's own overhead {kiln.overhead_s:.3f}s ({verdict} the 0.25 s target)")
    for name, outcome in others.items():
        if isinstance(outcome, str):
            print(f"{name:<15} not measured: {outcome}")
        else:
            print(row(name, outcome))
    for name, outcome in others.items():
        if isinstance(outcome, Measured):
            ratio = outcome.end_to_end_s / kiln.end_to_end_s
            verdict = "meets" if ratio >= 6 else "MISSES"
            print(
                f"kiln vs {name}: {ratio:.1f}x faster end to end ({verdict} the 6x target); "
                f"own overhead {outcome.overhead_s / kiln.overhead_s:.1f}x smaller"
            )
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (2 cores)")


if __name__ == "__main__":
    main()
