"""`bench_tui.py --long`: a scripted 1,000-step session through the real app, then the
streaming lag late in it against early, its memory, and `kiln --resume` of it against a
fresh `kiln`, all in one run (see bench_tui.py's docstring for the targets)."""

from __future__ import annotations

import gc
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.bench_tui import ROOT, _server_process, painted_lines, percentiles, rss_mb

STREAMED_AT = (10,)  # and the last step: the same long reply streamed at each
MARKERS = 40  # per long reply
PARAGRAPH = (
    "I read the parser and the failing case again; the tokenizer keeps the quote when "
    "the field ends the line, so the next field starts inside it. "
)

REPO = {
    "calc.py": "def add(a, b):\n    return a + b\n",
    "test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
}

# A child interpreter, as `kiln` starts: time from its start until `wanted` is painted
# (every piece of it, across frames), or until the first frame when nothing is wanted.
CHILD = """
import gc, os, sys, time
t0 = float(sys.argv[1])
gc.disable()  # as `kiln` starts the app (agent/cli.py); the app turns it back on
from pathlib import Path
from agent.settings.config import load_settings
from tui.app import KilnApp
from bench.bench_tui import painted_lines, rss_mb
repo, resume, wanted = Path(sys.argv[2]), sys.argv[3] or None, sys.argv[4:]
settings = load_settings(repo, {"models.main.base_url": "http://127.0.0.1:9/v1",
    "models.main.model": "scripted-model", "sandbox.backend": "bwrap"}, env={})
app = KilnApp(settings, repo, resume=resume)
seen = set()
display = app._display
def timed_display(screen, update):
    display(screen, update)
    lines = painted_lines(update)
    if not wanted and lines:
        done()
    text = "\\n".join(lines.values())
    seen.update(w for w in wanted if w in text)
    if wanted and len(seen) == len(wanted):
        done()
def done():
    print(time.time() - t0, rss_mb(), flush=True)
    os._exit(0)  # nothing of the session started yet is kept: it is measured, not used
app._display = timed_display
app.run(headless=True, size=(120, 36))
"""


def _turns(steps: int) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = []
    for step in range(1, steps):
        text = f"Step {step}: " + PARAGRAPH
        turn: dict[str, Any] = {"text": text}
        if step in STREAMED_AT:
            turn = {"text": _long_reply(step), "stream_delay_s": 0.004}
        if step % 10 == 0:
            turn["tool_calls"] = [{"name": "run_tests", "arguments": {}}]
        else:
            content = f"progress: step {step}\n" + "".join(f"line {i}\n" for i in range(step % 7))
            turn["tool_calls"] = [
                {"name": "write_file", "arguments": {"path": "progress.txt", "content": content}}
            ]
        turns.append(turn)
    turns.append(
        {
            "text": _long_reply(steps),
            "stream_delay_s": 0.004,
            "tool_calls": [
                {"name": "finish", "arguments": {"summary": f"Summary: all {steps} steps done."}}
            ],
        }
    )
    return turns


def _long_reply(step: int) -> str:
    """About 4,000 tokens with a marker every hundred: a few seconds of streaming."""
    parts = []
    for k in range(MARKERS):
        parts.append(f"q{step}m{k}x " + PARAGRAPH * 4)
        if k % 5 == 4:
            parts.append("\n\n")
    return "".join(parts)


class GcPauses:
    """The collector's full (generation 2) collections, and how long each held the loop."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses.append(time.perf_counter() - self._started)

    def said(self) -> str:
        if not self.pauses:
            return "no full collections"
        return (
            f"{len(self.pauses)} full collections, longest {max(self.pauses) * 1000:.0f} ms, "
            f"last {self.pauses[-1] * 1000:.0f} ms"
        )


class MarkerClock:
    """When each marker word reached the screen (as its event was delivered) and when a
    frame first painted it."""

    def __init__(self) -> None:
        self.sent: dict[str, float] = {}
        self.lags: dict[str, list[float]] = {}

    def delivered(self, text: str) -> None:
        now = time.perf_counter()
        for word in text.split():
            if word.startswith("q") and word.endswith("x") and "m" in word:
                self.sent[word] = now

    def frame(self, lines: dict[int, str]) -> None:
        now = time.perf_counter()
        body = "\n".join(text for y, text in lines.items() if y > 0)
        for key in [k for k in self.sent if k in body]:
            step = key[1 : key.index("m")]
            self.lags.setdefault(step, []).append(now - self.sent.pop(key))


async def _run_session(steps: int, backend: str, tmp: Path) -> tuple[str, Path, MarkerClock]:
    from agent.approval import Mode
    from agent.events import Finished, TextDelta
    from agent.settings.config import load_settings
    from tests.conftest import make_git_repo
    from tests.tui.live import live_app

    clock = MarkerClock()
    pauses = GcPauses()
    gc.callbacks.append(pauses)
    with _server_process(_turns(steps), tmp) as server:
        repo = make_git_repo(tmp / "repo", REPO)  # its tests pass: the finish is taken
        app = live_app(repo, server, Mode.FULL_AUTO)  # type: ignore[arg-type]
        overrides = {
            "models.main.base_url": server.base_url,
            "models.main.model": "scripted-model",
            "limits.max_steps": steps + 10,
            "limits.max_tool_calls": steps * 2,
            "limits.repeat_limit": steps,
            "limits.timeout_s": 0.0,
            "tests.run_after_edits": False,  # the script runs them every tenth step
            "sandbox.backend": backend,
        }
        app.settings = load_settings(repo, overrides, env={})
        async with app.run_test(size=(120, 36)) as pilot:
            while app.session is None or app.session.sandbox is None:
                await pilot.pause(0.1)
            display = app._display
            deliver = app.main.deliver

            def timed_display(screen: Any, update: Any) -> None:
                display(screen, update)
                clock.frame(painted_lines(update))

            finished: list[Finished] = []

            def timed_deliver(event: Any) -> None:
                if isinstance(event, TextDelta):
                    clock.delivered(event.text)
                elif isinstance(event, Finished):
                    finished.append(event)
                deliver(event)

            app._display = timed_display  # type: ignore[method-assign,assignment]
            app.main.deliver = timed_deliver  # type: ignore[method-assign]
            started = time.perf_counter()
            app.run_task("go")
            shown = 0
            # Not a scan of the session's events: twice a second, over 10,000 events at the
            # end, it was the bench's own work in the loop whose lag it measures.
            while not finished or app.running:
                await pilot.pause(0.5)
                step = app.meter_state.steps
                if step >= shown + 100:
                    shown = step - step % 100
                    print(f"  … step {step} after {time.perf_counter() - started:.0f}s", flush=True)
            took = time.perf_counter() - started
            done = finished[-1]
            session_id = app.session.session_id
            mounted, entries = len(app.main.transcript.mounted), len(app.main.transcript.entries)
            after = rss_mb()
            await app.close_session()
    gc.callbacks.remove(pauses)
    print(
        f"long session: {done.steps} steps ({done.stop_reason.value}) in {took:.0f}s on "
        f"{backend}; RSS after {after:.0f} MB (target <= 200 MB: "
        f"{'met' if after <= 200 else 'MISSED'}); {mounted} of {entries} transcript blocks "
        f"mounted; the collector: {pauses.said()}"
    )
    return session_id, repo, clock


def _child(repo: Path, resume: str, wanted: list[str], env: dict[str, str]) -> tuple[float, float]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, repr(time.time()), str(repo), resume, *wanted],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )
    if out.returncode != 0 or not out.stdout.strip():
        raise RuntimeError(f"the child failed: {out.stderr[-2000:]}")
    took, rss = out.stdout.split()
    return float(took), float(rss)


async def long_mode(steps: int, backend: str, runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
            os.environ[var] = str(tmp / var.lower())
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        session_id, repo, clock = await _run_session(steps, backend, tmp)
        early = clock.lags.get("10", [])
        late = clock.lags.get(str(steps), [])
        p95 = lambda lags: sorted(lags)[min(len(lags) - 1, int(0.95 * len(lags)))]  # noqa: E731
        if early and late:
            ratio = p95(late) / p95(early)
            verdict = "met" if ratio <= 1.2 and p95(late) < 0.05 else "MISSED"
            said = f"{ratio:.2f}x (target <= 1.2x and < 50 ms: {verdict})"
        else:
            said = "markers not seen"
        print(
            f"streaming lag at step 10: {percentiles(early)} ({len(early)} markers); at step "
            f"{steps}: {percentiles(late)} ({len(late)} markers); p95 late/early {said}"
        )
        # What the resumed screen must show: the summary and the last steps before it.
        wanted = [f"Summary: all {steps} steps done.", f"q{steps}m{MARKERS - 1}x"]
        fresh, resumed, rss = [], [], []
        for _ in range(runs):  # alternated, so a slower minute of the machine hits both
            fresh.append(_child(repo, "", [], env)[0])
            took, resident = _child(repo, session_id[:8], wanted, env)
            resumed.append(took)
            rss.append(resident)
        f, r = statistics.median(fresh), statistics.median(resumed)
        verdict = "met" if r <= 1.5 * f and r <= 1.0 else "MISSED"
        print(
            f"kiln --resume of the {steps}-step session: its last steps and summary painted "
            f"after {r * 1000:.0f} ms; a fresh kiln's prompt after {f * 1000:.0f} ms (median "
            f"of {runs}): {r / f:.2f}x (target <= 1.5x and <= 1 s: {verdict}); RSS of the "
            f"resumed app {statistics.median(rss):.0f} MB; load {os.getloadavg()[0]:.2f}"
        )
