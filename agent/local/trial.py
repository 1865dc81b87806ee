"""Run kiln on a bundled task exactly as a person would, and measure what happened.

`kiln run` is started as a subprocess on a fresh git copy of the task with
`--output-format stream-json --apply --apply-unverified` (a change kiln could not verify is
judged too: a `done` the judge fails is a false claim); its events give steps, tool calls, calls recovered
from text and token usage. Whether the task is solved is checked independently: the
task's own test command runs on the result afterwards, with the task's test files put
back as they were first (a run that rewrote the tests is judged on the real ones). The
`.ci/demo` script, `kiln eval` and the live tests (`pytest -m live`) all use this. The
judge runs in a sandbox of its own, never on the host: the result is a model's code.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent.llm.cache_stats import CacheStats, log_offset, stats_since
from agent.local.bundled import BundledTask, add_judge, checkout, restore_tests
from agent.local.server import server_log

JUDGE_TIMEOUT_S = 120.0


@dataclass
class TrialResult:
    task: str
    solved: bool = False
    status: str = "no result"  # kiln's own verdict (Finished.status), or why there is none
    stop_reason: str = ""  # Finished.stop_reason; empty when kiln never finished
    steps: int = 0
    tool_calls: int = 0
    recovered_calls: int = 0
    format_notices: int = 0
    input_tokens: int = 0
    cached_tokens: int = 0
    output_tokens: int = 0
    wall_s: float = 0.0
    server_cache: CacheStats = field(default_factory=CacheStats)
    diff: str = ""
    tests_restored: list[str] = field(default_factory=list)  # test files the run had changed
    # The strategy whose candidate, kept, passed every test (a CandidateKind value:
    # "rewrite", "variant", "part_of_rewrite", "module", "sampled_edit"); "" for none.
    fixed_by: str = ""
    exit_code: int = 0
    stderr_tail: str = ""

    def line(self) -> str:
        cache = self.server_cache
        return (
            f"{self.task:<12} {'SOLVED' if self.solved else 'failed':<7} status={self.status:<9}"
            f" steps={self.steps:<3} calls={self.tool_calls:<3} recovered={self.recovered_calls:<3}"
            f" tokens in={self.input_tokens} (cached {self.cached_tokens},"
            f" {self.cached_tokens / max(1, self.input_tokens):.0%}) out={self.output_tokens}"
            f" server-cache={cache.cached_share:.0%} of {cache.prompt_tokens}"
            f" wall={self.wall_s:.0f}s"
        )


def run_trial(
    task: BundledTask, *, extra_args: tuple[str, ...] = (), timeout_s: float | None = None
) -> TrialResult:
    """`timeout_s` None: kiln's own default wall clock (3 minutes for a small model), as a
    person running `kiln run` gets it."""
    with tempfile.TemporaryDirectory(prefix=f"kiln-{task.name}-") as tmp:
        repo = checkout(task, Path(tmp) / task.name)
        cmd = [
            sys.executable, "-m", "agent.cli", "run",
            "--repo", str(repo),
            "--test-command", task.test_command,
            "--approval", "full-auto",
            "--output-format", "stream-json",
            "--apply",
            "--apply-unverified",  # the judge looks at every result; `status` says kiln's verdict
            *(["--timeout", str(timeout_s)] if timeout_s else []),
            *extra_args,
            task.prompt,
        ]  # fmt: skip
        result = TrialResult(task.name)
        offset = log_offset(server_log())
        started = time.monotonic()
        try:
            proc = subprocess.run(
                cmd, capture_output=True, text=True, timeout=(timeout_s or 900) + 120, cwd=tmp
            )
            result.exit_code = proc.returncode
            result.stderr_tail = "\n".join(proc.stderr.strip().splitlines()[-5:])
            _read_events(proc.stdout, result)
        except subprocess.TimeoutExpired:
            result.status = "timeout"
        result.wall_s = time.monotonic() - started
        result.server_cache = stats_since(server_log(), offset)
        result.diff = _git(repo, "diff")
        result.tests_restored = restore_tests(repo)
        add_judge(task, repo)  # hidden tests, where the task has them, join its own
        result.solved = _tests_pass(repo, task.test_command)
        return result


def _read_events(stdout: str, result: TrialResult) -> None:
    for line in stdout.splitlines():
        try:
            event: dict[str, Any] = json.loads(line)
        except ValueError:
            continue
        kind = event.get("type")
        if kind == "tool_call_started":
            result.tool_calls += 1
            result.recovered_calls += bool(event.get("recovered_from_text"))
        elif kind == "notice" and "format" in str(event.get("message", "")).lower():
            result.format_notices += 1
        elif kind == "candidates_tried" and event.get("passing") and event.get("chosen"):
            result.fixed_by = str(event.get("how", ""))  # a kept candidate passed every test
        elif kind == "finished":
            usage = event.get("usage") or {}
            result.status = str(event.get("status", "?"))
            result.stop_reason = str(event.get("stop_reason", ""))
            result.steps = int(event.get("steps", 0))
            result.input_tokens = int(usage.get("uncached_input", 0)) + int(
                usage.get("cached_input", 0)
            )
            result.cached_tokens = int(usage.get("cached_input", 0))
            result.output_tokens = int(usage.get("output", 0))


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True).stdout


def _tests_pass(repo: Path, command: str) -> bool:
    """The task's tests on the result, in a sandbox like every command kiln runs: the
    result holds what a model wrote, which must never run on the host."""
    return asyncio.run(_tests_pass_in_sandbox(repo, command))


async def _tests_pass_in_sandbox(repo: Path, command: str) -> bool:
    from agent.boundary import start_sandbox
    from agent.settings.config import load_settings
    from sandbox.base import Sandbox

    made: list[Sandbox] = []
    try:
        # The person's own settings only: the task's repository has no say in its judge.
        box = await start_sandbox(repo, load_settings(None), "judge", made, lambda _: None)
        ran = await box.exec(command, timeout=JUDGE_TIMEOUT_S)
        return ran.ok  # a fix that makes the tests hang is no fix
    finally:
        for box in made:
            await box.close()


def summary(results: list[TrialResult]) -> str:
    solved = sum(r.solved for r in results)
    calls = sum(r.tool_calls for r in results)
    recovered = sum(r.recovered_calls for r in results)
    cached = sum(r.server_cache.cached_tokens for r in results)
    prompt = sum(r.server_cache.prompt_tokens for r in results)
    wall = sum(r.wall_s for r in results)
    return (
        f"solved {solved}/{len(results)}; tool calls recovered from text {recovered}/{calls}; "
        f"server cache served {cached}/{prompt} prompt tokens "
        f"({cached / prompt if prompt else 0:.0%}); wall {wall:.0f}s "
        f"({wall / max(1, len(results)):.0f}s per task)"
    )
