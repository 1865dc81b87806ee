"""The store with size: `kiln sessions list` over 10,000 stored sessions, and `kiln sessions
show` of a 1,000-step session, each as a person runs it (a fresh `kiln` process), next to
`kiln --version` in the same run (the interpreter and kiln's imports: the floor any
command pays). Also in-process: the list's query against the query it replaced (every
row read in `updated` order with no index) on the same store.

Every session is written through the store's own API (`Store.record`, `save_state`,
`record_request`), each with about 20 KB of conversation in its row and most with a diff.

Run: .venv/bin/python bench/bench_store.py [--sessions N] [--steps N]
Target: `kiln sessions list` with 10,000 sessions <= 0.3 s.
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

OLD_LIST = (  # the list's query before the index: every row, in `updated` order, then cut
    "SELECT id, created, updated, repo, model, mode, title, COALESCE(status, ''), "
    "COALESCE(stop_reason, ''), steps + COALESCE(run_steps, 0), cost_usd, "
    "uncached + cached + cache_write + output, "
    "COALESCE(landing, CASE WHEN status = 'done' AND diff != '' "
    "THEN 'not applied' ELSE '' END), pid FROM sessions NOT INDEXED ORDER BY updated DESC LIMIT ?"
)


def fill(path: Path, sessions: int, steps: int) -> str:
    """`sessions` short sessions and one of `steps` steps; returns the long one's id."""
    from agent.approval import Mode
    from agent.events import Finished, RunStatus, SessionStarted, StopReason, TurnStarted, Usage
    from agent.llm.base import Message
    from agent.llm.request import ModelRequest
    from agent.store.db import Store
    from tests.tui.scenes import long_session

    store = Store(path)
    # Tool results and replies under the blob size stay in the row, as most of them do:
    # about 20 KB of conversation in each session's row.
    conversation = [
        Message("user" if i % 2 else "assistant", f"turn {i}: " + "words and more " * 45)
        for i in range(30)
    ]
    diff = "diff --git a/calc.py b/calc.py\n" + "+    return a + b\n" * 40
    for n in range(sessions):
        sid = f"{n:08x}{os.urandom(2).hex()}"
        store.record(sid, SessionStarted(sid, f"/home/me/repo{n % 40}", f"task {n}", "m", Mode.ASK))
        store.record(sid, TurnStarted(1))
        store.record(sid, Finished(RunStatus.DONE, StopReason.DONE, "ok", steps=3, tool_calls=4))
        store.save_state(
            sid, [*conversation, Message("user", f"session {n}")], diff if n % 3 else ""
        )
    long_id = "long" + os.urandom(4).hex()
    for event in long_session(steps, session_id=long_id, repo="/home/me/repo"):
        store.record(long_id, event)
    for step in range(1, steps + 1):
        store.record_request(
            long_id,
            ModelRequest(
                messages=(*conversation, Message("user", f"step {step}")),
                tools=(),
                reply=Message("assistant", f"step {step} done"),
                usage=Usage(100, 2000, 0, 40),
                step=step,
                model="m",
                ttft_s=0.2,
                duration_s=1.0,
                cost_usd=None,
                role="main",
            ),
        )
    store.save_state(long_id, conversation, diff)
    store.close()
    return long_id


def timed(command: list[str], env: dict[str, str], runs: int) -> tuple[float, str]:
    times, out = [], ""
    for _ in range(runs):
        started = time.perf_counter()
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        times.append(time.perf_counter() - started)
        out = done.stdout
    return statistics.median(times), out


def in_process(path: Path, prefix: str, runs: int) -> dict[str, float]:
    """Median seconds of the list's and the lookup's queries, now and as they were."""
    from agent.store.db import Store

    store = Store(path)
    steps = {
        "list": lambda: store.sessions(50),
        "list before": lambda: store.db.execute(OLD_LIST, (50,)).fetchall(),
        "find": lambda: store.find(prefix),
        # as it was: every session read, then the ids that start with the prefix kept
        "find before": lambda: [
            r for r in store.db.execute(OLD_LIST, (10_000,)).fetchall() if r[0].startswith(prefix)
        ],
    }
    took: dict[str, float] = {}
    for name, step in steps.items():
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            step()
            times.append(time.perf_counter() - started)
        took[name] = statistics.median(times)
    store.close()
    return took


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    kiln = str(Path(sys.executable).with_name("kiln"))
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "XDG_DATA_HOME": tmp, "XDG_STATE_HOME": tmp, "XDG_CONFIG_HOME": tmp}
        os.environ.update(env)
        path = Path(tmp) / "kiln" / "kiln.db"
        path.parent.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        long_id = fill(path, args.sessions, args.steps)
        size = path.stat().st_size / 2**20
        print(
            f"store: {args.sessions} sessions and one of {args.steps} steps written in "
            f"{time.perf_counter() - started:.0f}s ({size:.0f} MB)"
        )
        floor, _ = timed([kiln, "--version"], env, args.runs)
        listed, out = timed([kiln, "sessions", "list"], env, args.runs)
        assert out.count("\n") == 51, out[:500]  # the header and 50 sessions
        shown, out = timed([kiln, "sessions", "show", long_id[:8]], env, args.runs)
        assert f"All {args.steps} steps done" in out
        took = in_process(path, long_id[:8], args.runs)
    print(
        f"kiln sessions list ({args.sessions} sessions): {listed:.3f}s against kiln --version "
        f"{floor:.3f}s ({listed / floor:.2f}x; target <= 0.3 s: "
        f"{'met' if listed <= 0.3 else 'MISSED'}); in process, the list's query "
        f"{took['list'] * 1000:.2f} ms against {took['list before'] * 1000:.1f} ms before the "
        f"index, the id prefix found in {took['find'] * 1000:.2f} ms against "
        f"{took['find before'] * 1000:.1f} ms reading every session"
    )
    print(
        f"kiln sessions show ({args.steps} steps, by an id prefix): {shown:.3f}s against "
        f"kiln --version {floor:.3f}s ({shown / floor:.2f}x); load {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
