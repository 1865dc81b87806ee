"""The embedded server's prompt-lookup drafts: tokens a second with and without them.

Starts the installed model twice in one run, each on its own port: as kiln starts it
(`server_command`, drafts on) and the same command without the draft flags (the
baseline). Each server gets the same requests, shaped as kiln's implement path makes
them from one Exercism tune exercise (its instructions, stub and tests): the whole module
asked for, then that module handed back with three of its tests said to fail (an
improvement request, whose reply mostly repeats the module). Greedy first (the two
servers mostly answer alike: a pass of several tokens rounds differently from one token
at a time, so a near tie can go the other way), then sampled at kiln's candidate
temperature. Printed per request kind: the reply tokens a second on each server and the
ratio.

Run: .venv/bin/python bench/bench_draft.py [EXERCISE_DIR] [--samples 2]
Target: improvements at least 1.3x as fast, fresh modules no slower (>= 0.95x).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agent.llm.base import Message  # noqa: E402
from agent.local.catalog import DEFAULT_MODEL, MODELS  # noqa: E402
from agent.local.server import DRAFT_FLAGS, _free_port, server_command  # noqa: E402
from agent.prompts.implement import implement_request, improve_request  # noqa: E402
from agent.tools.testdigest import TestDigest  # noqa: E402

DEFAULT_EXERCISE = Path("/tmp/kiln-exercism/tune/circular-buffer")  # bench/exercism_sets.py
TEMPERATURE = 0.7


Wire = list[dict[str, str]]


@dataclass
class Served:
    greedy: tuple[str, str]  # the module, then its improvement
    rates: dict[str, list[float]]  # reply tokens a second, per request kind


def exercise_requests(folder: Path) -> tuple[Wire, Callable[[str], Wire]]:
    """The implement request for `folder`'s exercise, and a maker of its improvement."""
    tests = {p.name: p.read_text() for p in sorted(folder.glob("*_test.py"))}
    stub_path = next(p for p in sorted(folder.glob("*.py")) if p.name not in tests)
    docs = folder / ".docs"
    task = "\n\n".join(p.read_text() for p in sorted(docs.glob("*.md"))) if docs.is_dir() else ""
    stub = stub_path.read_text()
    first = implement_request(task, "", stub_path.name, stub, tests)
    names = [line.split("def ")[1].split("(")[0] for t in tests.values()
             for line in t.splitlines() if line.strip().startswith("def test_")][:3]  # fmt: skip

    def improve(module: str) -> Wire:
        failure = TestDigest(
            command="python3 -m pytest -q", exit_code=1, passed=5, failed=len(names), errors=0,
            failing=tuple(names),
            text="\n".join(f"FAILED {stub_path.stem}_test.py::{n} - AssertionError" for n in names),
        )  # fmt: skip
        return _wire(improve_request(task, "", stub_path.name, stub, tests, module, failure))

    return _wire(first), improve


def _wire(messages: list[Message]) -> Wire:
    return [{"role": m.role, "content": m.content} for m in messages]


def ask(
    client: httpx.Client, messages: Wire, temperature: float, seed: int
) -> tuple[str, int, float]:
    started = time.perf_counter()
    reply = client.post("/chat/completions", json={
        "model": "kiln", "messages": messages, "max_tokens": 900,
        "temperature": temperature, "seed": seed,
    })  # fmt: skip
    reply.raise_for_status()
    body = reply.json()
    took = time.perf_counter() - started
    return body["choices"][0]["message"]["content"], body["usage"]["completion_tokens"], took


def serve(command: list[str]) -> tuple[subprocess.Popen[bytes], httpx.Client]:
    port = int(command[command.index("--port") + 1])
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}/v1", timeout=900)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            client.get("/models").raise_for_status()
            return server, client
        except httpx.HTTPError:
            time.sleep(0.5)
    server.kill()
    raise SystemExit("the model server did not answer within 180 s")


def measure(
    command: list[str], first: Wire, improve: Callable[[str], Wire], samples: int
) -> Served:
    server, client = serve(command)
    try:
        ask(client, first, 0.0, 0)  # the prompt read once, so both kinds start from the cache
        rates: dict[str, list[float]] = {"fresh": [], "improve": []}
        module, tokens, took = ask(client, first, 0.0, 0)
        rates["fresh"].append(tokens / took)
        improve_messages = improve(module)
        ask(client, improve_messages, 0.0, 0)  # its prompt read once too
        improved, tokens, took = ask(client, improve_messages, 0.0, 0)
        rates["improve"].append(tokens / took)
        for seed in range(1, samples + 1):
            _, tokens, took = ask(client, first, TEMPERATURE, seed)
            rates["fresh"].append(tokens / took)
            _, tokens, took = ask(client, improve_messages, TEMPERATURE, seed)
            rates["improve"].append(tokens / took)
        return Served((module, improved), rates)
    finally:
        server.terminate()
        server.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("exercise", nargs="?", type=Path, default=DEFAULT_EXERCISE)
    parser.add_argument("--samples", type=int, default=2)
    args = parser.parse_args()
    first, improve = exercise_requests(args.exercise)
    spec = MODELS[DEFAULT_MODEL]
    drafted = server_command(spec, _free_port())
    plain = server_command(spec, _free_port())
    at = plain.index(DRAFT_FLAGS[0])
    del plain[at : at + len(DRAFT_FLAGS)]
    results: dict[str, Served] = {}
    for name, command in (("without drafts", plain), ("with drafts", drafted)):
        results[name] = measure(command, first, improve, args.samples)
    base, new = results["without drafts"], results["with drafts"]
    same = "the same" if base.greedy == new.greedy else "different"
    print(f"{args.exercise.name}: greedy replies {same} on both servers")
    for kind, floor in (("fresh", 0.95), ("improve", 1.3)):
        before = statistics.median(base.rates[kind])
        after = statistics.median(new.rates[kind])
        verdict = "met" if after / before >= floor else "MISSED"
        print(f"  {kind:8} {before:5.1f} -> {after:5.1f} tokens/s: {after / before:.2f}x "
              f"(target >= {floor}x: {verdict}); each: {_rounded(base.rates[kind])} / "
              f"{_rounded(new.rates[kind])}")  # fmt: skip


def _rounded(rates: list[float]) -> list[float]:
    return [round(rate, 1) for rate in rates]


if __name__ == "__main__":
    main()
