"""kiln's own overhead on a scripted 6-step fix, against Aider and mini-swe-agent in the same run.

Run: .venv/bin/python bench/bench_overhead.py [--runs 5] [--skip-others]

The model is the scripted server on 127.0.0.1 answering instantly, so what is left is each
agent's own cost. For kiln:
  end to end   = `kiln run` process start to exit (median of --runs)
  sandbox time = the union of the intervals spent inside Sandbox calls (container start and
                 stop, commands, file reads/writes, diffs, checkpoints), measured in-process
  overhead     = end to end - sandbox time
Aider and mini-swe-agent are installed from PyPI into a separate venv under /tmp (never a
dependency of kiln), pointed at the same scripted server with the same fix written in their
own formats, and timed end to end. Target: kiln at least 4x faster end to end than both.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agent.approval import Mode  # noqa: E402
from agent.config import load_settings  # noqa: E402
from agent.headless import HeadlessApprover  # noqa: E402
from agent.llm.base import ModelProfile  # noqa: E402
from agent.llm.openai_compat import OpenAICompatClient  # noqa: E402
from agent.llm.scripted import ScriptedServer  # noqa: E402
from agent.session import Session, _create_sandbox  # noqa: E402
from bench.overhead_others import run_aider, run_mini  # noqa: E402
from bench.timed_sandbox import TimedSandbox  # noqa: E402

KILN = str(ROOT / ".venv" / "bin" / "kiln")
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


def kiln_end_to_end(workdir: Path) -> float:
    repo = make_repo(workdir)
    with ScriptedServer(KILN_SCRIPT) as server:
        started = time.perf_counter()
        done = subprocess.run(
            [KILN, "run", TASK, "--repo", str(repo), "--base-url", server.base_url,
             "--model", "scripted", "--apply", "--output-format", "json"],
            capture_output=True, text=True,
        )  # fmt: skip
        elapsed = time.perf_counter() - started
    if done.returncode != 0 or not fixed(repo):
        raise SystemExit(f"kiln run failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return elapsed


async def kiln_in_process(workdir: Path) -> tuple[float, float]:
    """(in-process total, union of sandbox time) for the same scripted fix."""
    repo = make_repo(workdir)
    settings = load_settings(repo, env={})
    with ScriptedServer(KILN_SCRIPT) as server:
        started = time.perf_counter()
        sandbox = TimedSandbox(_create_sandbox(repo, settings, "bench"))
        client = OpenAICompatClient(ModelProfile(base_url=server.base_url, model="scripted"))
        session = Session(
            settings, repo, HeadlessApprover(True), Mode.AUTO_EDIT, client=client, sandbox=sandbox
        )
        try:
            async for _ in session.run(TASK):
                pass
            await session.wait_baseline()
            await session.apply()
        finally:
            await session.close()
        total = time.perf_counter() - started
    if not fixed(repo):
        raise SystemExit("the in-process kiln run did not fix the repository")
    print("  sandbox calls:", ", ".join(f"{k} {v:.2f}s" for k, v in sandbox.by_call.items()))
    return total, sandbox.busy_s()


def median_of(runs: int, measure: Any) -> float:
    values = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="kiln-bench-") as tmp:
            values.append(measure(Path(tmp)))
    return statistics.median(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--skip-others", action="store_true")
    args = parser.parse_args()

    kiln_e2e = median_of(args.runs, kiln_end_to_end)
    pairs = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="kiln-bench-") as tmp:
            pairs.append(asyncio.run(kiln_in_process(Path(tmp))))
    in_process = statistics.median(p[0] for p in pairs)
    sandbox_s = statistics.median(p[1] for p in pairs)
    print(f"kiln end to end (process start to exit), median of {args.runs}: {kiln_e2e:.3f}s")
    print(f"kiln in-process total:                     {in_process:.3f}s")
    print(f"  time inside sandbox calls (union):       {sandbox_s:.3f}s")
    print(f"  kiln's own overhead in-process:          {in_process - sandbox_s:.3f}s")
    print(f"kiln's own overhead end to end:            {kiln_e2e - sandbox_s:.3f}s")
    if args.skip_others:
        return
    for name, runner in (("Aider", run_aider), ("mini-swe-agent", run_mini)):
        outcome = runner(args.runs, make_repo, fixed)
        if isinstance(outcome, str):
            print(f"{name}: not measured: {outcome}")
            continue
        verdict = "meets" if outcome / kiln_e2e >= 4 else "misses"
        print(
            f"{name} end to end, median of {args.runs}: {outcome:.3f}s -> kiln is "
            f"{outcome / kiln_e2e:.1f}x faster ({verdict} the 4x target)"
        )


if __name__ == "__main__":
    main()
