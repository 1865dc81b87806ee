"""Aider and mini-swe-agent on kiln's evaluation sets, with the same local model and clock.

    .venv/bin/python bench/compare_agents.py aider|mini DIR --base-url URL --model NAME
        [--runs N] [--timeout 180] [--venv PATH] [--out FILE.jsonl]

Each task runs on a fresh git copy, as `kiln eval` runs kiln: the person's prompt, the
3-minute clock, no files named. The verdict is kiln's own: the task's test files are put
back as they were, then its test command must pass. The agents are installed in venvs of
their own (Aider: `pip install aider-chat`; mini-swe-agent: `pip install mini-swe-agent`),
never in kiln's. Both run their commands on this machine, not in a sandbox: only the
verdict is comparable, not the isolation.
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
from pathlib import Path

from agent.local.bundled import BundledTask, checkout, restore_tests
from agent.local.evaluate import find_tasks
from agent.local.measuring import one_measurement

HERE = Path(__file__).resolve().parent
# Both use litellm, which would fetch its model price list from the internet first.
OFFLINE = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "MSWEA_CONFIGURED": "true"}


def aider(task: BundledTask, repo: Path, args: argparse.Namespace) -> list[str]:
    _seed_aider_prices(Path(args.venv))
    return [
        str(Path(args.venv) / "bin" / "aider"),
        "--model", f"openai/{args.model}", "--openai-api-base", args.base_url,
        "--openai-api-key", "local", "--yes-always", "--no-auto-commits", "--no-check-update", "--no-gitignore",
        "--no-analytics", "--no-show-model-warnings", "--no-pretty", "--no-stream",
        "--test-cmd", task.test_command, "--auto-test", "--message", task.prompt,
    ]  # fmt: skip


def mini(task: BundledTask, repo: Path, args: argparse.Namespace) -> list[str]:
    prompt = f"{task.prompt}\n\nThe repository is the current directory; its tests run with `{task.test_command}`."
    return [
        str(Path(args.venv) / "bin" / "python"), str(HERE / "mini_driver.py"),
        str(repo), args.base_url, prompt, "", args.model, args.mini_config,
    ]  # fmt: skip


AGENTS = {"aider": aider, "mini": mini}


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


def run_one(agent: str, task: BundledTask, args: argparse.Namespace) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix=f"cmp-{task.name}-") as tmp:
        repo = checkout(task, Path(tmp) / task.name)
        started = time.monotonic()
        try:
            proc = subprocess.run(
                AGENTS[agent](task, repo, args), cwd=repo, capture_output=True, text=True,
                timeout=args.timeout, stdin=subprocess.DEVNULL, env=OFFLINE,
            )  # fmt: skip
            ended = f"exit {proc.returncode}"
            tail = (proc.stdout + proc.stderr)[-300:]
        except subprocess.TimeoutExpired:
            ended, tail = "wall_clock", ""
        wall = time.monotonic() - started
        restored = restore_tests(repo)
        verdict = subprocess.run(
            task.test_command, shell=True, cwd=repo, capture_output=True, timeout=120
        )
        diff = subprocess.run(["git", "diff"], cwd=repo, capture_output=True, text=True).stdout
        return {
            "agent": agent, "task": task.name, "solved": verdict.returncode == 0,
            "wall_s": round(wall, 1), "ended": ended, "tests_restored": restored,
            "diff": diff, "tail": tail,
        }  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agent", choices=sorted(AGENTS))
    parser.add_argument("dir")
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=180.0)
    parser.add_argument("--venv", help="the agent's venv (default /tmp/AGENT-venv)")
    parser.add_argument("--out")
    parser.add_argument(
        "--mini-config",
        default="mini_textbased.yaml",
        help="mini-swe-agent's config: its text-based one (the default) asks for a fenced "
        "command, which a small local model writes; mini.yaml asks for tool calls",
    )
    args = parser.parse_args()
    args.venv = args.venv or f"/tmp/{args.agent}-venv"
    out = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115
    records = []
    with one_measurement():
        for split, task in find_tasks(Path(args.dir)):
            for n in range(1, args.runs + 1):
                record = {"split": split, "run": n, **run_one(args.agent, task, args)}
                records.append(record)
                verdict = "solved" if record["solved"] else "failed"
                print(f"{split}/{task.name} run {n}: {verdict} in {record['wall_s']}s ({record['ended']})", flush=True)  # fmt: skip
                if out:
                    out.write(json.dumps(record) + "\n")
                    out.flush()
    solved = sum(bool(r["solved"]) for r in records)
    per_task = statistics.median(float(r["wall_s"]) for r in records)  # type: ignore[arg-type]
    print(f"{args.agent}: solved {solved}/{len(records)} task-runs, median {per_task:.0f}s per run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
