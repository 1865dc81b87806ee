"""The counters of one run and the limits they are checked against (how a run ends: stops.py)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from agent.events import RunStatus, StopReason, TaskShape
from agent.llm.base import ToolCall
from agent.settings.config import Limits
from agent.tools.testdigest import TestDigest


def call_signature(name: str, arguments: dict[str, Any]) -> str:
    return name + json.dumps(arguments, sort_keys=True, default=str)


@dataclass
class RunState:
    """A run's counters and what it last saw (tests, calls, edits), checked against its limits."""

    limits: Limits
    started: float = field(default_factory=time.monotonic)
    steps: int = 0
    tool_calls: int = 0
    format_errors: int = 0  # consecutive
    idle_replies: int = 0  # consecutive replies with no tool call
    finish_refusals: int = 0
    stop_hooks: int = 0  # times the Stop hooks ran at `finish` in this run
    edits_since_tests: bool = False
    edited: bool = False  # anything changed during this run
    pending_change: bool = False  # a tool that may change the workspace ran this step
    last_tests: TestDigest | None = None
    last_calls: list[str] = field(default_factory=list)
    edits_without_progress: int = 0  # consecutive
    last_edit: ToolCall | None = None  # the latest edit call, for candidates to redo
    last_edit_step: int = -1
    candidate_rounds: int = 0
    shape: TaskShape = TaskShape.CHANGE  # what the request asks (agent/prompts/shape.py)
    diff_at_start: str = ""  # the workspace's diff when the run began: "changed" is against it
    start_ref: str | None = None  # the checkpoint holding the workspace as the run began
    # The last test run that failed before the run's first edit, and the reproduction kiln
    # wrote (its path and bytes): what a finished change's evidence is judged by (evidence.py).
    failed_before: TestDigest | None = None
    reproduction: tuple[str, bytes] | None = None
    # Finished child agents' diffs by their id, until the model takes one (run/children.py).
    child_diffs: dict[str, str] = field(default_factory=dict)
    # How each child ended: its status and steps (run/attempts.py ranks them by these).
    child_ended: dict[str, tuple[RunStatus, int]] = field(default_factory=dict)

    @property
    def deadline(self) -> float | None:
        return self.started + self.limits.timeout_s if self.limits.timeout_s else None

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def before_step(self) -> StopReason | None:
        # The wall clock is not checked here: one asyncio.timeout around the run enforces it.
        return StopReason.MAX_STEPS if self.steps >= self.limits.max_steps else None

    def before_call(
        self, name: str, arguments: dict[str, Any], *, track_repeats: bool = True
    ) -> StopReason | None:
        if self.tool_calls >= self.limits.max_tool_calls:
            return StopReason.MAX_TOOL_CALLS
        self.tool_calls += 1
        if not track_repeats:
            return None
        self.last_calls.append(call_signature(name, arguments))
        return StopReason.REPEATED_CALL if self.in_a_cycle() else None

    def in_a_cycle(self) -> bool:
        """The same call, or the same two calls taking turns, `repeat_limit` times over;
        the same 3 or 4 calls in the same order `repeat_limit - 1` times over (read, edit,
        test, read, edit, test...): small models fall into such loops and never get out."""
        repeat, calls = self.limits.repeat_limit, self.last_calls
        if not repeat:
            return False
        for length in range(1, MAX_CYCLE + 1):
            times = repeat if length <= 2 else max(repeat - 1, 2)
            tail = calls[-length * times :]
            if len(tail) == length * times and tail == tail[:length] * times:
                return True
        return False

    def after_edit_tests(self, before: TestDigest | None, after: TestDigest) -> StopReason | None:
        """An edit ran the tests: did anything move? No progress `no_progress_edits` times
        in a row ends the run."""
        unchanged = before is not None and _result(before) == _result(after) and not after.ok
        self.edits_without_progress = self.edits_without_progress + 1 if unchanged else 0
        return self._no_progress()

    def edit_failed(self) -> StopReason | None:
        """An edit that did not apply (no match, the same text) is no progress either."""
        self.edits_without_progress += 1
        return self._no_progress()

    def _no_progress(self) -> StopReason | None:
        limit = self.limits.no_progress_edits
        if limit and self.edits_without_progress >= limit:
            return StopReason.NO_PROGRESS
        return None


MAX_CYCLE = 4  # the longest loop of calls recognised


def _result(report: TestDigest) -> tuple[object, ...]:
    return (report.passed, report.failed, report.errors, report.failing)
