"""`kiln batch`: parallel speed-up, Ray's overhead per task, and the driver's memory.

Run: .venv/bin/python bench/bench_batch.py [--tasks 8] [--runs 2] [--instant 1000] [--skip-ray]

All in the same run, each against its baseline:
  jobs          wall time of `kiln batch` over N scripted tasks (real Docker sandboxes, the
                scripted model answering at once) at --jobs 1 and at --jobs 2; the speed-up
                is jobs-1 / jobs-2 (ideal 2x on 2 cores)
  ray           the same N tasks with --engine ray on a one-node cluster started beforehand
                (`ray start --head`, two kiln_sandbox slots), against the local engine at
                --jobs 2: (ray - local) / N is Ray's overhead per task
  memory        the driver's peak RSS for a TASKS file of --instant lines of instant tasks
                (each repo is missing, so each ends at once without a sandbox: the driver's
                own bookkeeping, results.jsonl fsynced per line, preds.json), against a
                10-line file and against `kiln --help`
Medians of --runs. Numbers are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.batch.raycluster import ray_env, start_head  # noqa: E402
from tests.batch.scenario import KILN, Batch  # noqa: E402

PYTHON = str(ROOT / ".venv" / "bin" / "python")


def timed_batch(tasks: int, *flags: str, env: dict[str, str] | None = None) -> float:
    """Seconds for one `kiln batch` over fresh repositories, servers and DIR; every task solved."""
    with tempfile.TemporaryDirectory(prefix="kiln-bench-batch-") as tmp:
        batch = Batch(Path(tmp), ids=tuple(f"task-{n:02d}" for n in range(tasks)))
        with batch.serving():
            started = time.perf_counter()
            done = subprocess.run(batch.command(*flags), capture_output=True, text=True, env=env)
            elapsed = time.perf_counter() - started
        solved = sum(line["status"] == "solved" for line in batch.lines())
        if done.returncode != 0 or solved != tasks:
            raise SystemExit(f"kiln batch {' '.join(flags)} failed:\n{done.stderr[-3000:]}")
    return elapsed


def median_of(runs: int, tasks: int, *flags: str, env: dict[str, str] | None = None) -> float:
    return statistics.median(timed_batch(tasks, *flags, env=env) for _ in range(runs))


def peak_rss_mb(command: list[str]) -> tuple[float, float]:
    """The peak resident memory of `command` (MB) and its wall time, from a fresh parent."""
    probe = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, time.perf_counter() - t)\n"
    )
    done = subprocess.run([PYTHON, "-c", probe, *command], capture_output=True, text=True)
    kilobytes, seconds = done.stdout.split()
    return int(kilobytes) / 1024, float(seconds)


def instant_tasks(root: Path, count: int) -> Path:
    tasks = root / f"instant-{count}.jsonl"
    missing = root / "no-such-repo"
    with open(tasks, "w") as out:
        for n in range(count):
            line = {"id": f"i{n:05d}", "repo": str(missing), "task": "fix the tests"}
            out.write(json.dumps(line) + "\n")
    return tasks


def memory(count: int) -> None:
    with tempfile.TemporaryDirectory(prefix="kiln-bench-mem-") as tmp:
        root = Path(tmp)
        help_mb, _ = peak_rss_mb([KILN, "--help"])
        small = [
            KILN,
            "batch",
            str(instant_tasks(root, 10)),
            "--out",
            str(root / "o10"),
            "--jobs",
            "8",
        ]
        small_mb, small_s = peak_rss_mb(small)
        big = [
            KILN,
            "batch",
            str(instant_tasks(root, count)),
            "--out",
            str(root / "big"),
            "--jobs",
            "8",
        ]
        big_mb, big_s = peak_rss_mb(big)
        lines = (root / "big" / "results.jsonl").read_text().count("\n")
    print(f"memory   kiln --help peak RSS        {help_mb:7.1f} MB (baseline)")
    print(f"memory   10 instant tasks            {small_mb:7.1f} MB  {small_s:6.2f} s")
    print(
        f"memory   {count} instant tasks        {big_mb:7.1f} MB  {big_s:6.2f} s  ({lines} lines)"
    )
    print(
        f"memory   {count} vs 10 tasks: {big_mb / small_mb:.2f}x the memory "
        f"(+{(big_mb - small_mb) * 1024 / max(count - 10, 1):.1f} KB per task); "
        f"{(big_s - small_s) * 1000 / max(count - 10, 1):.1f} ms per instant task"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=8)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--instant", type=int, default=1000)
    parser.add_argument("--skip-ray", action="store_true")
    args = parser.parse_args()
    n = args.tasks
    one = median_of(args.runs, n, "--jobs", "1")
    two = median_of(args.runs, n, "--jobs", "2")
    print(f"jobs     {n} tasks at --jobs 1     {one:6.2f} s  ({one / n:.2f} s per task)")
    print(f"jobs     {n} tasks at --jobs 2     {two:6.2f} s  ({two / n:.2f} s per task)")
    print(f"jobs     speed-up --jobs 2 / 1    {one / two:6.2f}x (ideal 2x on 2 cores)")
    if not args.skip_ray:
        env = ray_env()
        address, head = start_head(env, sandboxes=2)
        try:
            # The first batch on a fresh cluster also starts Ray's worker processes.
            cold = timed_batch(n, "--engine", "ray", "--address", address, env=env)
            warm = median_of(args.runs, n, "--engine", "ray", "--address", address, env=env)
        finally:
            head.stop()
        print(f"ray      {n} tasks, fresh cluster  {cold:6.2f} s")
        print(f"ray      {n} tasks, running one    {warm:6.2f} s")
        print(
            f"ray      overhead per task vs local --jobs 2: {(warm - two) / n * 1000:+.0f} ms "
            f"(fresh cluster {(cold - two) / n * 1000:+.0f} ms); ray / local {warm / two:.2f}x"
        )
    memory(args.instant)


if __name__ == "__main__":
    main()
