"""What `kiln run --attempts 4` costs in wall time against one attempt, in the same run:
the installed `kiln`, the scripted model (one reply that fixes the bug and finishes, served
to every request), the real Docker sandbox, `[agents] max_parallel = 4`. Runs both N
times, interleaved, and prints the medians and their ratio (the target: at most 1.6).

    .venv/bin/python bench/bench_attempts.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agent.llm.scripted.server import ScriptedServer

KILN = str(Path(sys.executable).parent / "kiln")
CALC = "def add(a, b):\n    return a - b\n"
TESTS = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
FIX = {
    "tool_calls": [
        {"name": "edit_file",
         "arguments": {"path": "calc.py", "old_text": "a - b", "new_text": "a + b"}},
        {"name": "finish", "arguments": {"summary": "fixed"}},
    ]
}  # fmt: skip


def repo(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "calc.py").write_text(CALC)
    (root / "test_calc.py").write_text(TESTS)
    env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b",
           "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@b"}  # fmt: skip
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "start"]):
        subprocess.run(["git", *command], cwd=root, check=True, env=env)
    return root


def timed(root: Path, server: ScriptedServer, attempts: int, env: dict[str, str]) -> float:
    started = time.monotonic()
    done = subprocess.run(
        [KILN, "run", "fix add", "--repo", str(root), "--base-url", server.base_url,
         "--model", "m", "--approval", "full-auto", "--attempts", str(attempts),
         "--output-format", "json"],
        capture_output=True, text=True, env=env, timeout=600,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"kiln run --attempts {attempts} failed: {done.stderr[-500:]}")
    return time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kiln-bench-attempts-") as tmp:
        config = Path(tmp) / "config"
        (config / "kiln").mkdir(parents=True)
        (config / "kiln" / "config.toml").write_text("[agents]\nmax_parallel = 4\n")
        env = {**os.environ, "XDG_CONFIG_HOME": str(config)}
        times: dict[int, list[float]] = {1: [], 4: []}
        with ScriptedServer({"turns": [FIX], "loop": True}) as server:
            for run in range(args.runs):
                for attempts in (1, 4):
                    root = repo(Path(tmp) / f"repo-{run}-{attempts}")
                    times[attempts].append(timed(root, server, attempts, env))
    one, four = statistics.median(times[1]), statistics.median(times[4])
    print(f"1 attempt:  median {one:.2f}s over {args.runs} runs {[round(t, 2) for t in times[1]]}")
    print(f"4 attempts: median {four:.2f}s over {args.runs} runs {[round(t, 2) for t in times[4]]}")
    print(f"ratio: {four / one:.2f}x (target: at most 1.6x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
