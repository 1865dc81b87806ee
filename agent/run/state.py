"""The counters of one run and the limits they are checked against (how a run ends: stops.py)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from agent.events import StopReason
from agent.settings.config import Limits
from agent.tools.testdigest import TestDigest


def call_signature(name: str, arguments: dict[str, Any]) -> str:
    return name + json.dumps(arguments, sort_keys=True, default=str)


@dataclass
class RunState:
    limits: Limits
    started: float = field(default_factory=time.monotonic)
    steps: int = 0
    tool_calls: int = 0
    format_errors: int = 0  # consecutive
    idle_replies: int = 0  # consecutive replies with no tool call
    finish_refusals: int = 0
    edits_since_tests: bool = False
    edited: bool = False  # anything changed during this run
    pending_change: bool = False  # a tool that may change the workspace ran this step
    last_tests: TestDigest | None = None
    last_calls: list[str] = field(default_factory=list)

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
        repeat = self.limits.repeat_limit
        recent = self.last_calls[-repeat:]
        if repeat and len(recent) == repeat and len(set(recent)) == 1:
            return StopReason.REPEATED_CALL
        # Two calls taking turns (read a file, make the same failing edit, read it again...)
        # is the same loop; small models fall into it.
        pairs = self.last_calls[-2 * repeat :]
        if (
            repeat
            and len(pairs) == 2 * repeat
            and len(set(pairs[::2])) == len(set(pairs[1::2])) == 1
        ):
            return StopReason.REPEATED_CALL
        return None
