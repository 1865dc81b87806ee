"""Where the time of bench_overhead's `kiln run` goes: a timeline of its sandbox, step by step.

Run: .venv/bin/python bench/bench_timeline.py [--runs 7] [--before TREE] [--plain 0]

The same scripted 6-step fix as bench/bench_overhead.py, each run traced by
bench/kiln_timeline.py. Printed per span (a Sandbox call, an Engine API request, the
command server's handshake, a request to the server), medians over the runs: when it
ended (seconds since the process's first line) and how long it took; then the process's
wall time and CPU time (user + system of kiln and the host processes it waited for), and
the load average. Spans of the same name are numbered in order (#2, #3, ...).

With --before TREE (another kiln source tree, e.g. `git archive main | tar -x -C TREE`),
its runs alternate with this checkout's in the same venv (kiln as installed,
bench/kiln_install.py), so both see the same load.
--plain N adds N untraced runs of each (`kiln run` as the console script starts it,
alternating too): their end-to-end times, medians and the ratio, traced by nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agent.llm.scripted.server import ScriptedServer  # noqa: E402
from bench.bench_overhead import KILN_SCRIPT, fixed, kiln_argv, make_repo  # noqa: E402
from bench.bytecode import compile_kiln  # noqa: E402
from bench.kiln_install import installed_kiln  # noqa: E402

Span = tuple[float, float, str]  # began, ended, thread
Run = tuple[dict[str, Span], float, float, float]  # named spans, wall, CPU, container CPU


def one_run(tree: Path) -> Run:
    """The named spans of one traced run of `tree`'s kiln, its wall time, its CPU time
    and its container's."""
    with tempfile.TemporaryDirectory(prefix="kiln-timeline-") as tmp:
        repo = make_repo(Path(tmp))
        log = Path(tmp) / "timeline.json"
        argv = [
            str(installed_kiln()),
            str(ROOT / "bench" / "kiln_timeline.py"),
            str(tree),
            str(log),
        ]
        with ScriptedServer(KILN_SCRIPT) as server:
            cpu_before = _children_cpu()
            started = time.perf_counter()
            done = subprocess.run(
                [*argv, *kiln_argv(repo, server.base_url)], capture_output=True, text=True
            )
            wall = time.perf_counter() - started
            cpu = _children_cpu() - cpu_before
        if done.returncode != 0 or not fixed(repo):
            raise SystemExit(f"kiln run failed ({done.returncode}): {done.stderr.strip()[-500:]}")
        named: dict[str, Span] = {}
        seen: dict[str, int] = {}
        report = json.loads(log.read_text())
        for began, ended, thread, what in report["spans"]:
            seen[what] = seen.get(what, 0) + 1
            key = what if seen[what] == 1 else f"{what} #{seen[what]}"
            named[key] = (began, ended, thread)
        return named, wall, cpu, report["container_cpu_s"]


PLAIN = (
    "import sys; sys.path.insert(0, sys.argv.pop(1)); from agent.cli import main; sys.exit(main())"
)


def plain_run(tree: Path) -> float:
    """One untraced `kiln run` of `tree`'s kiln, start to exit, as bench_overhead's."""
    with tempfile.TemporaryDirectory(prefix="kiln-timeline-") as tmp:
        repo = make_repo(Path(tmp))
        with ScriptedServer(KILN_SCRIPT) as server:
            started = time.perf_counter()
            done = subprocess.run(
                [str(installed_kiln()), "-c", PLAIN, str(tree), *kiln_argv(repo, server.base_url)],
                capture_output=True,
                text=True,
            )
            wall = time.perf_counter() - started
        if done.returncode != 0 or not fixed(repo):
            raise SystemExit(f"kiln run failed ({done.returncode}): {done.stderr.strip()[-500:]}")
        return wall


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--before", type=Path, help="another kiln tree, run alternately")
    parser.add_argument("--plain", type=int, default=0, help="untraced runs of each tree")
    args = parser.parse_args()
    trees = {"this": ROOT} if args.before is None else {"before": args.before, "after": ROOT}
    for tree in trees.values():
        compile_kiln(tree)
        one_run(tree)  # warm the page cache and the engine's image metadata
    runs: dict[str, list[Run]] = {name: [] for name in trees}
    for _ in range(args.runs):
        for name, tree in trees.items():
            runs[name].append(one_run(tree))
    columns = "".join(f" {name + ': ended':>14} {'took':>6}" for name in trees)
    print(f"{columns}  span (medians of {args.runs} runs each, seconds)")
    for key in _in_order(runs):
        row = ""
        for name in trees:
            spans = [named[key] for named, *_ in runs[name] if key in named]
            if not spans:
                row += f" {'-':>14} {'-':>6}"
                continue
            ended = statistics.median(s[1] for s in spans)
            took = statistics.median(s[1] - s[0] for s in spans)
            row += f" {ended:14.3f} {took:6.3f}"
        print(f"{row}  {key}")
    print()
    for name in trees:
        walls = [run[1] for run in runs[name]]
        cpus = [run[2] for run in runs[name]]
        inside = [run[3] for run in runs[name]]
        print(
            f"{name:>6}: wall {statistics.median(walls):.3f} s (min {min(walls):.3f}), "
            f"kiln's CPU {statistics.median(cpus):.3f} s (min {min(cpus):.3f}), "
            f"the container's CPU {statistics.median(inside):.3f} s (min {min(inside):.3f})"
        )
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")
    if args.plain:
        _print_plain(trees, args.plain)


def _print_plain(trees: dict[str, Path], runs: int) -> None:
    walls: dict[str, list[float]] = {name: [] for name in trees}
    for _ in range(runs):
        for name, tree in trees.items():
            walls[name].append(plain_run(tree))
    for name, times in walls.items():
        print(
            f"{name:>6}: untraced end to end {statistics.median(times):.3f} s "
            f"(min {min(times):.3f}, {runs} runs)"
        )
    if len(trees) == 2:
        before, after = (statistics.median(times) for times in walls.values())
        print(f"after / before: {after / before:.2f} (medians of the same run)")
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")


def _in_order(runs: dict[str, list[Run]]) -> list[str]:
    """Every span's name, ordered by when it began (median over all runs that have it)."""
    began: dict[str, list[float]] = {}
    for tree_runs in runs.values():
        for named, *_ in tree_runs:
            for key, span in named.items():
                began.setdefault(key, []).append(span[0])
    return sorted(began, key=lambda key: statistics.median(began[key]))


if __name__ == "__main__":
    main()
