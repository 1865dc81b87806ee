"""Recorded event sequences the TUI tests draw (real event types, fixed values)."""

from __future__ import annotations

from pathlib import Path

from agent.approval import Mode
from agent.events import (
    AssistantMessage,
    Event,
    FilesChanged,
    Finished,
    Notice,
    Phase,
    PhaseChanged,
    PlanStatus,
    PlanStep,
    PlanUpdated,
    SessionStarted,
    StopReason,
    TestsRan,
    TextDelta,
    ToolCallFinished,
    ToolCallStarted,
    TurnStarted,
    Usage,
    UsageUpdated,
)
from agent.llm.base import ModelProfile
from agent.settings.config import Limits, Settings
from tui.app import KilnApp

DIFF = """diff --git a/calc.py b/calc.py
index 1111111..2222222 100644
--- a/calc.py
+++ b/calc.py
@@ -1,4 +1,4 @@
 def add(a, b):
-    return a - b
+    return a + b
 
 def sub(a, b):
"""

SESSION = [
    TurnStarted(1),
    PhaseChanged(Phase.EDIT),
    PlanUpdated(
        (
            PlanStep("read calc.py", PlanStatus.DONE),
            PlanStep("fix add()", PlanStatus.IN_PROGRESS),
            PlanStep("run the tests"),
        )
    ),
    TextDelta("The bug is in `add`: it **subtracts**.\n\n"),
    TextDelta("- fix the operator\n- run the tests\n"),
    AssistantMessage(
        "The bug is in `add`: it **subtracts**.\n\n- fix the operator\n- run the tests\n"
    ),
    ToolCallStarted("c1", "read_file", {"path": "calc.py"}),
    ToolCallFinished("c1", "read_file", True, "def add(a, b):\n    return a - b\n", 0.1),
    ToolCallStarted("c2", "edit_file", {"path": "calc.py", "old": "a - b", "new": "a + b"}),
    ToolCallFinished("c2", "edit_file", True, "edited calc.py", 0.2),
    ToolCallStarted("c3", "run_tests", {"cmd": "python -m pytest -q"}),
    ToolCallFinished("c3", "run_tests", False, "1 failed, 3 passed", 1.4, exit_code=1),
    TestsRan("python -m pytest -q", 3, 1, 0, 1, ("test_calc.py::test_sub",), duration_s=1.4),
    FilesChanged(("calc.py",)),
    UsageUpdated(Usage(1200, 5400, 0, 310), Usage(1200, 5400, 0, 310), 0.0425),
    Notice("recovered a tool call written as text", "warning"),
    Notice("the model server answered 500; retrying", level="error"),
    Finished(
        "done",
        StopReason.DONE,
        "Fixed `add`.",
        steps=3,
        tool_calls=3,
        usage=Usage(1200, 5400, 0, 310),
        cost_usd=0.0425,
        duration_s=8.0,
    ),
]


def offline_settings(budget: float = 0.05) -> Settings:
    return Settings(
        models={"main": ModelProfile(base_url="http://127.0.0.1:9/v1", model="scripted-model")},
        limits=Limits(budget_usd=budget),
    )


def offline_app(budget: float = 0.05, mode: Mode = Mode.ASK) -> KilnApp:
    """The app drawing events without a session (no sandbox, no model, no clock)."""
    return KilnApp(offline_settings(budget), Path("/repo"), mode, connect=False)


def long_session(steps: int, session_id: str = "long", repo: str = "/repo") -> list[Event]:
    """A recorded session of `steps` steps, each a reply, a command, an edit and a test
    digest, ending in a summary: what a day-long session leaves in the store."""
    events: list[Event] = [
        SessionStarted(session_id, repo, "keep going", "scripted-model", Mode.FULL_AUTO)
    ]
    for step in range(1, steps + 1):
        reply = f"Step {step}: checking the parser, marker w{step}x.\n\n- then the tests\n"
        events += [
            TurnStarted(step),
            TextDelta(reply),
            AssistantMessage(reply),
            ToolCallStarted(f"r{step}", "run", {"command": f"grep -n token{step} parser.py"}),
            ToolCallFinished(f"r{step}", "run", True, f"{step}: token{step} = {step}\n" * 3, 0.1),
            ToolCallStarted(f"e{step}", "edit_file", {"path": "parser.py", "old": "a", "new": "b"}),
            ToolCallFinished(f"e{step}", "edit_file", True, f"edited parser.py ({step})", 0.1),
            TestsRan("python -m pytest -q", step, 1, 0, 1, (f"test_p.py::t{step}",)),
            FilesChanged(("parser.py",)),
        ]
    events.append(
        Finished(
            "done",
            StopReason.DONE,
            f"All {steps} steps done: the parser is fixed.",
            steps=steps,
            tool_calls=2 * steps,
            duration_s=60.0,
        )
    )
    return events
