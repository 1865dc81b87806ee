"""The embedded model's server over many tasks: its memory, and what its prompt cache saves.

Starts the installed model twice in one run, each on its own port: as kiln started it
before (`python -m llama_cpp.server`, the model mapped from its file, the baseline) and
as kiln starts it now (`python -m agent.local.server_process`: saved states without the
logits copy, the cache counted in the bytes it holds, the model read into memory). Each server gets the same tasks, shaped as kiln's
repair path makes them: a stable system prefix, the task, then two prompts that share only
that prefix (implement, improve), each taken up again after a tool result, so every task
goes back to a state the live context no longer has. After every few tasks the server's
resident memory (VmRSS, of which anonymous) is read from /proc. The prompt-cache share is
the prefix tokens the server reused over all prompt tokens, from its verbose log.

Run: .venv/bin/python bench/bench_local_memory.py [--tasks 100] [--baseline-tasks 25]
Target: at most 2.5 GB resident after 100 tasks, with the baseline's cache share.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agent.llm.cache_stats import parse_cache_stats  # noqa: E402
from agent.local.catalog import DEFAULT_MODEL, MODELS  # noqa: E402
from agent.local.server import _free_port, server_command  # noqa: E402

SYSTEM = (ROOT / "agent" / "local" / "server.py").read_text()[:1600]
SOURCES = sorted((ROOT / "agent").rglob("*.py"))


def memory_mb(pid: int) -> tuple[int, int]:
    """(VmRSS, RssAnon) of `pid` in MB."""
    fields = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
    )
    return int(fields["VmRSS"].split()[0]) // 1024, int(fields["RssAnon"].split()[0]) // 1024


def task_text(index: int, offset: int, size: int) -> str:
    text = SOURCES[index % len(SOURCES)].read_text()
    start = (offset * 97) % max(1, len(text) - size)
    return text[start : start + size]


def ask(client: httpx.Client, messages: list[dict[str, str]], seed: int) -> str:
    reply = client.post(
        "/chat/completions",
        json={"model": "kiln", "messages": messages, "max_tokens": 16,
              "temperature": 0.8, "seed": seed},
    )  # fmt: skip
    reply.raise_for_status()
    return str(reply.json()["choices"][0]["message"]["content"])


def run_task(client: httpx.Client, index: int) -> None:
    """Two branches sharing the system prefix, each continued after a tool result."""
    system = {"role": "system", "content": SYSTEM}
    task = {"role": "user", "content": "Task: " + task_text(index, index, 500)}
    branches = [
        [system, task, {"role": "user", "content": "Write the module. " + task_text(index + 1, 0, 300)}],
        [system, task, {"role": "user", "content": "Improve it. " + task_text(index + 2, 1, 300)}],
    ]  # fmt: skip
    for step in range(2):
        for number, branch in enumerate(branches):
            answer = ask(client, branch, seed=index * 10 + step * 2 + number)
            branch += [
                {"role": "assistant", "content": answer},
                {"role": "user", "content": "Tests: " + task_text(index + 3 + step, number, 250)},
            ]


def measure(command: list[str], tasks: int, log: Path) -> dict[str, object]:
    port = int(command[command.index("--port") + 1])
    with log.open("wb") as out:
        server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        client = httpx.Client(base_url=f"http://127.0.0.1:{port}/v1", timeout=600)
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            try:
                client.get("/models").raise_for_status()
                break
            except httpx.HTTPError:
                time.sleep(0.5)
        loaded = memory_mb(server.pid)
        samples, started = [], time.monotonic()
        for index in range(tasks):
            run_task(client, index)
            if (index + 1) % 10 == 0 or index + 1 == tasks:
                rss, anon = memory_mb(server.pid)
                samples.append({"tasks": index + 1, "rss_mb": rss, "anon_mb": anon})
                print(f"  {index + 1} tasks: {rss} MB resident ({anon} anonymous)", flush=True)
        elapsed = time.monotonic() - started
    finally:
        server.terminate()
        server.wait(30)
    cache = parse_cache_stats(log.read_text(errors="replace"))
    return {
        "tasks": tasks, "seconds_per_task": round(elapsed / tasks, 2),
        "loaded_rss_mb": loaded[0], "peak_rss_mb": max(s["rss_mb"] for s in samples),
        "final": samples[-1], "samples": samples,
        "requests": cache.requests, "cache_share": round(cache.cached_share, 3),
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=100)
    parser.add_argument("--baseline-tasks", type=int, default=25)
    args = parser.parse_args()
    spec = MODELS[DEFAULT_MODEL]
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, tasks in (("baseline", args.baseline_tasks), ("kiln", args.tasks)):
            if tasks == 0:
                continue
            command = server_command(spec, _free_port())
            if name == "baseline":  # as kiln started it before server_process.py
                command[command.index("agent.local.server_process")] = "llama_cpp.server"
                at = command.index("--use_mmap")
                del command[at : at + 2]
            print(f"{name}: {' '.join(command[1:3])}, {tasks} tasks", flush=True)
            results[name] = measure(command, tasks, Path(tmp) / f"{name}.log")
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
