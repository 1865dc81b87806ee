"""kiln, Aider and mini-swe-agent on the same tasks, with the same local model and clock.

    .venv/bin/python bench/compare_agents.py kiln,aider,mini DIR --base-url URL --model NAME
        [--runs N] [--timeout 180] [--out FILE.jsonl]
        [--only NAME,...] [--exclude-from DIR] [--sample N --seed S]
        [--aider-venv PATH] [--mini-venv PATH]

DIR is what `kiln eval` takes: kiln's own sets (`bench/eval/`) or a folder of Exercism
exercises (`bench/exercism_sets.py`), chosen among by the same flags. Each task runs on a
fresh git copy, as `kiln eval` runs kiln (the same copy: an exercise's solution is left
out), with the same prompt and clock. Aider edits whole files (`--edit-format whole`) and,
as Aider's own benchmark harness does, is given the files the prompt names (none for
kiln's sets). The verdict is kiln's own for every agent: the task's test files are put
back as they were, then its test command must pass, in a sandbox. Aider and
mini-swe-agent are installed in venvs of their own, never in kiln's:

    python3 -m venv /tmp/aider-venv && /tmp/aider-venv/bin/pip install aider-chat
    python3 -m venv /tmp/mini-venv && /tmp/mini-venv/bin/pip install mini-swe-agent

Both run their commands on this machine, not in a sandbox: only the verdict is
comparable, not the isolation. The table at the end has one row per task and one
column per agent.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from agent.local.bundled import BundledTask, add_judge, checkout, restore_tests
from agent.local.evaluate import chosen_tasks
from agent.local.measuring import one_measurement
from agent.local.trial import _tests_pass, run_trial

HERE = Path(__file__).resolve().parent
# Both use litellm, which would fetch its model price list from the internet first.
OFFLINE = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "MSWEA_CONFIGURED": "true"}


def aider(task: BundledTask, repo: Path, args: argparse.Namespace) -> list[str]:
    _seed_aider_prices(Path(args.aider_venv))
    return [
        str(Path(args.aider_venv) / "bin" / "aider"),
        "--model", f"openai/{args.model}", "--openai-api-base", args.base_url,
        "--openai-api-key", "local", "--edit-format", "whole",
        "--yes-always", "--no-auto-commits", "--no-check-update", "--no-gitignore",
        "--no-analytics", "--no-show-model-warnings", "--no-pretty", "--no-stream",
        "--test-cmd", task.test_command, "--auto-test", "--message", task.prompt,
        *task.files,
    ]  # fmt: skip


def mini(task: BundledTask, repo: Path, args: argparse.Namespace) -> list[str]:
    prompt = f"{task.prompt}\n\nThe repository is the current directory; its tests run with `{task.test_command}`."
    return [
        str(Path(args.mini_venv) / "bin" / "python"), str(HERE / "mini_driver.py"),
        str(repo), args.base_url, prompt, "", args.model, args.mini_config,
    ]  # fmt: skip


PEERS = {"aider": aider, "mini": mini}
AGENTS = ("kiln", *PEERS)


def _seed_aider_prices(venv: Path) -> None:
    """Aider downloads litellm's model list at start unless its cache holds one; the copy
    litellm ships is put there, so it never tries to leave the machine."""
    cache = Path.home() / ".aider" / "caches" / "model_prices_and_context_window.json"
    shipped = next(
        venv.glob("lib/python*/site-packages/litellm/model_prices_and_context_window_backup.json"),
        None,
    )
    if shipped is not None and not cache.exists():
        cache.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shipped, cache)


def run_kiln(task: BundledTask, args: argparse.Namespace) -> dict[str, object]:
    """kiln as `kiln eval` runs it: `kiln run` on a fresh copy, its own clock set to the
    same seconds as the others'."""
    model = ("--base-url", args.base_url, "--model", args.model)
    result = run_trial(task, extra_args=model, timeout_s=args.timeout)
    return {
        "agent": "kiln", "task": task.name, "solved": result.solved,
        "wall_s": round(result.wall_s, 1), "ended": result.stop_reason or result.status,
        "status": result.status,  # done / unverified / failed...: a `done` not solved is a false claim
        "tests_restored": result.tests_restored, "diff": result.diff,
        "tail": result.stderr_tail[-300:],
    }  # fmt: skip


def run_peer(agent: str, task: BundledTask, args: argparse.Namespace) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix=f"cmp-{task.name}-") as tmp:
        repo = checkout(task, Path(tmp) / task.name)
        started = time.monotonic()
        try:
            proc = subprocess.run(
                PEERS[agent](task, repo, args), cwd=repo, capture_output=True, text=True,
                timeout=args.timeout, stdin=subprocess.DEVNULL, env=OFFLINE,
            )  # fmt: skip
            ended = f"exit {proc.returncode}"
            tail = (proc.stdout + proc.stderr)[-300:]
        except subprocess.TimeoutExpired:
            ended, tail = "wall_clock", ""
        wall = time.monotonic() - started
        restored = restore_tests(repo)
        diff = subprocess.run(["git", "diff"], cwd=repo, capture_output=True, text=True).stdout
        add_judge(task, repo)  # the hidden tests, as kiln's trial adds them: judged alike
        # The peers ran the tests on this machine: their ignored caches (.pytest_cache holds
        # a .gitignore of its own) are removed, as the judge's sandbox would hide them anyway.
        subprocess.run(["git", "clean", "-fdXq"], cwd=repo, capture_output=True)
        return {
            "agent": agent, "task": task.name, "solved": _tests_pass(repo, task.test_command),
            "wall_s": round(wall, 1), "ended": ended, "tests_restored": restored,
            "diff": diff, "tail": tail,
        }  # fmt: skip


def run_one(agent: str, task: BundledTask, args: argparse.Namespace) -> dict[str, object]:
    return run_kiln(task, args) if agent == "kiln" else run_peer(agent, task, args)


def table(records: list[dict[str, object]], agents: list[str]) -> str:
    """One row per task, one column per agent (solved/runs, median seconds), then a total
    per split and agent."""
    width = 16
    lines = [f"{'task':<30}" + "".join(f"{a:>{width}}" for a in agents)]
    keys = list(dict.fromkeys((str(r["split"]), str(r["task"])) for r in records))
    for split, task in keys:
        cells = [_cell([r for r in records if (r["split"], r["task"], r["agent"]) == (split, task, a)])
                 for a in agents]  # fmt: skip
        lines.append(f"{split + '/' + task:<30}" + "".join(f"{c:>{width}}" for c in cells))
    for split in dict.fromkeys(s for s, _ in keys):
        for agent in agents:
            runs = [r for r in records if (r["split"], r["agent"]) == (split, agent)]
            if runs:
                solved = sum(bool(r["solved"]) for r in runs)
                median = statistics.median(float(str(r["wall_s"])) for r in runs)
                lines.append(f"{split}: {agent} solved {solved}/{len(runs)} task-runs "
                             f"({solved / len(runs):.0%}), median {median:.0f}s per run"
                             + _claims(runs))  # fmt: skip
    return "\n".join(lines)


def _claims(runs: list[dict[str, object]]) -> str:
    """kiln's own verdicts beside the judge's: how many ended `done`, and how many of those
    the judge failed (a false claim)."""
    if not any("status" in r for r in runs):
        return ""
    done = [r for r in runs if r.get("status") == "done"]
    false = sum(not r["solved"] for r in done)
    statuses = ", ".join(f"{n} {s}" for s, n in Counter(str(r.get("status")) for r in runs).items())
    return f"; kiln said {statuses}; {false} `done` the judge failed"


def _cell(runs: list[dict[str, object]]) -> str:
    if not runs:
        return "-"
    solved = sum(bool(r["solved"]) for r in runs)
    return f"{solved}/{len(runs)} {statistics.median(float(str(r['wall_s'])) for r in runs):.0f}s"


def _agents(text: str) -> list[str]:
    agents = [a.strip() for a in text.split(",") if a.strip()]
    unknown = [a for a in agents if a not in AGENTS]
    if unknown or not agents:
        raise argparse.ArgumentTypeError(f"choose among {', '.join(AGENTS)}, comma-separated")
    return agents


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agents", type=_agents, help="kiln,aider,mini (any of them)")
    parser.add_argument("dir")
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=180.0)
    parser.add_argument("--aider-venv", default="/tmp/aider-venv")
    parser.add_argument("--mini-venv", default="/tmp/mini-venv")
    parser.add_argument("--out")
    parser.add_argument("--only", metavar="NAME,...")
    parser.add_argument("--exclude-from", metavar="DIR")
    parser.add_argument("--sample", type=int, metavar="N")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--mini-config",
        default="mini_textbased.yaml",
        help="mini-swe-agent's config: its text-based one (the default) asks for a fenced "
        "command, which a small local model writes; mini.yaml asks for tool calls",
    )
    args = parser.parse_args()
    for agent in args.agents:
        venv = getattr(args, f"{agent}_venv", None)
        if venv and not (Path(venv) / "bin" / "python").exists():
            sys.exit(
                f"{agent} is not installed in {venv}; see the install commands in this script's doc."
            )
    tasks = chosen_tasks(args)
    out = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115
    records = []
    with one_measurement():
        # Task by task, every agent in turn: an interrupted comparison stays a fair one.
        for split, task in tasks:
            for n in range(1, args.runs + 1):
                for agent in args.agents:
                    record = {"split": split, "run": n, **run_one(agent, task, args)}
                    records.append(record)
                    verdict = "solved" if record["solved"] else "failed"
                    ended = (
                        f"{record['ended']}, {record['status']}"
                        if "status" in record
                        else record["ended"]
                    )
                    print(f"{agent} {split}/{task.name} run {n}: {verdict} in {record['wall_s']}s ({ended})", flush=True)  # fmt: skip
                    if out:
                        out.write(json.dumps(record) + "\n")
                        out.flush()
    print(table(records, args.agents))
    return 0


if __name__ == "__main__":
    sys.exit(main())
