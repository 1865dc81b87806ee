"""What ACP and MCP cost on top of the work, as ratios against baselines in the same run.

Run: .venv/bin/python bench/bench_protocols.py [--runs 3] [--calls 200]

1. One scripted 5-step fix of the same repository, end to end: through `kiln acp` (a plain
   JSON-RPC client, full-auto mode, the apply allowed) against `kiln run --apply` (the
   baseline). The scripted model answers at once; the real Docker sandbox runs the tests.
2. MCP tool calls on the hand-written test server: through kiln's client (`McpTools.call`)
   against the same requests written straight to the server's pipe (the baseline).
Prints medians and the ratios; no target is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agent.llm.scripted.server import ScriptedServer  # noqa: E402
from agent.mcp.tools import McpTools  # noqa: E402
from agent.settings.config import McpServer  # noqa: E402
from tests.acp.plain_acp import KILN, PlainAcpClient  # noqa: E402
from tests.conftest import make_git_repo  # noqa: E402
from tests.mcp.mcp_fixtures import HANDWRITTEN  # noqa: E402
from tests.scripted import BUGGY_REPO, FIX_SCRIPT  # noqa: E402


def through_run(repo: Path) -> float:
    with ScriptedServer(FIX_SCRIPT) as server:
        started = time.perf_counter()
        subprocess.run(
            [KILN, "run", "fix add", "--repo", str(repo), "--base-url", server.base_url,
             "--model", "scripted", "--approval", "full-auto", "--apply"],
            check=True, capture_output=True,
        )  # fmt: skip
        return time.perf_counter() - started


def through_acp(repo: Path) -> tuple[float, float]:
    """(process start to initialize answered, session/new to the prompt's answer)"""
    with ScriptedServer(FIX_SCRIPT) as server:
        started = time.perf_counter()
        client = PlainAcpClient(
            "--base-url", server.base_url, "--model", "scripted", "--mode", "auto-edit"
        )
        client.request("initialize", {"protocolVersion": 1})
        up = time.perf_counter()
        session = client.request("session/new", {"cwd": str(repo), "mcpServers": []})
        prompt = client.start_request(
            "session/prompt",
            {"sessionId": session["sessionId"], "prompt": [{"type": "text", "text": "fix add"}]},
        )
        while True:
            message = client.receive()
            if message.get("method") == "session/request_permission":  # the final apply
                client.answer(
                    message, {"outcome": {"outcome": "selected", "optionId": "allow_once"}}
                )
            elif message.get("id") == prompt and "method" not in message:
                break
        done = time.perf_counter()
        client.close()
        return up - started, done - up


async def mcp_calls(calls: int) -> tuple[float, float]:
    server = McpServer(command=sys.executable, args=(str(HANDWRITTEN),))
    tools = await McpTools.start({"glossary": server}, ROOT, 40)
    try:
        for n in range(-20, calls):  # the first 20 warm up, and are not timed
            if n == 0:
                started = time.perf_counter()
            await tools.call("mcp__glossary__lookup", {"word": f"w{n}"})
        kiln = (time.perf_counter() - started) / calls
    finally:
        await tools.close()
    raw = await asyncio.create_subprocess_exec(
        sys.executable, str(HANDWRITTEN), stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert raw.stdin is not None and raw.stdout is not None
    for n in range(-20, calls):
        if n == 0:
            started = time.perf_counter()
        request = {"jsonrpc": "2.0", "id": n, "method": "tools/call",
                   "params": {"name": "lookup", "arguments": {"word": f"w{n}"}}}  # fmt: skip
        raw.stdin.write(json.dumps(request).encode() + b"\n")
        await raw.stdin.drain()
        await raw.stdout.readline()
    direct = (time.perf_counter() - started) / calls
    raw.stdin.close()
    await raw.wait()
    return kiln, direct


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("XDG_STATE_HOME", f"{tmp}/state")  # keep the bench's sessions apart
        base = Path(tmp)
        run_s, acp_up, acp_s = [], [], []
        for n in range(args.runs):  # alternated, so a busy moment hits both alike
            run_s.append(through_run(make_git_repo(base / f"run{n}", BUGGY_REPO)))
            up, work = through_acp(make_git_repo(base / f"acp{n}", BUGGY_REPO))
            acp_up.append(up)
            acp_s.append(work)
    run_m, up_m, acp_m = (statistics.median(v) for v in (run_s, acp_up, acp_s))
    print(f"one fix: kiln run {run_m:.2f} s from process start to exit; kiln acp "
          f"{up_m:.2f} s to answer initialize (once per editor session), then {acp_m:.2f} s "
          f"from session/new to the prompt's answer (ACP / headless = {acp_m / run_m:.2f}x "
          f"without the start, {(up_m + acp_m) / run_m:.2f}x with it; medians of {args.runs})")  # fmt: skip
    kiln, direct = asyncio.run(mcp_calls(args.calls))
    print(f"MCP tool call: through kiln {kiln * 1000:.2f} ms, written to the pipe "
          f"{direct * 1000:.2f} ms ({kiln / direct:.2f}x; {args.calls} calls each)")  # fmt: skip


if __name__ == "__main__":
    main()
