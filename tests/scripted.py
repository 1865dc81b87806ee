"""Scripted sessions for the tests of the core: a buggy repository and its fix as scripted
turns, a scripted person, a tool context over a sandbox, a session against a scripted model."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from agent.approval import ApprovalRequest, Decision, Mode, Verdict
from agent.events import Event
from agent.llm.base import ModelProfile, Prices
from agent.llm.openai_compat import OpenAICompatClient
from agent.llm.scripted.server import ScriptedServer
from agent.session import Session
from agent.settings.config import Settings, load_settings
from agent.tools import ToolContext
from agent.tools.gate import ApprovalGate
from agent.tools.testdigest import detect_test_command
from sandbox.base import Sandbox

BUGGY_REPO = {
    "calc.py": "def add(a, b):\n    return a - b\n",
    "test_calc.py": (
        "import unittest\n\nfrom calc import add\n\n\n"
        "class TestAdd(unittest.TestCase):\n"
        "    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n"
    ),
    ".gitignore": "build/\n*.log\n",
}
FIX_SCRIPT: list[dict[str, Any]] = [
    {
        "text": "Let me look.",
        "tool_calls": [{"name": "read_file", "arguments": {"path": "calc.py"}}],
    },
    {
        "tool_calls": [
            {
                "name": "update_plan",
                "arguments": {"steps": [{"title": "fix add", "status": "in_progress"}]},
            }
        ]
    },
    {
        "tool_calls": [
            {
                "name": "edit_file",
                "arguments": {"path": "calc.py", "old_text": "a - b", "new_text": "a + b"},
            }
        ]
    },
    {"tool_calls": [{"name": "run_tests", "arguments": {}}]},
    {"tool_calls": [{"name": "finish", "arguments": {"summary": "add adds now"}}]},
]


class ScriptedPerson:
    """An Approver answering from a list of decisions; records every request it saw."""

    def __init__(self, *answers: Decision) -> None:
        self.answers = list(answers)
        self.asked: list[ApprovalRequest] = []

    async def decide(self, request: ApprovalRequest) -> Decision:
        self.asked.append(request)
        return self.answers.pop(0) if self.answers else Decision(Verdict.APPROVE)


def tool_context(sandbox: Sandbox, mode: Mode = Mode.AUTO_EDIT, person: Any = None) -> ToolContext:
    settings = load_settings(sandbox.repo, env={})
    return ToolContext(
        sandbox=sandbox,
        settings=settings,
        gate=ApprovalGate(person or ScriptedPerson(), mode),
        test_command=detect_test_command(sandbox.repo),
    )


def settings_with(repo: Path, **overrides: Any) -> Settings:
    return load_settings(repo, overrides, env={})


async def run_scripted(
    repo: Path,
    script: Any,
    task: str = "fix add",
    *,
    mode: Mode = Mode.AUTO_EDIT,
    person: Any = None,
    settings: Settings | None = None,
    prices: Prices | None = None,
    on_event: Callable[[Event, Session], None] | None = None,
    clock_from: float | None = None,
) -> tuple[list[Event], Session, ScriptedServer]:
    """One session over `repo` against a scripted model; returns its events."""
    with ScriptedServer(script) as server:
        profile = ModelProfile(
            base_url=server.base_url, model="scripted", prices=prices or Prices(), max_retries=0
        )
        session = Session(
            settings or load_settings(repo, env={}),
            repo,
            person or ScriptedPerson(),
            mode,
            client=OpenAICompatClient(profile, backoff_base_s=0.01),
        )
        events: list[Event] = []
        try:
            async for event in session.run(task, clock_from):
                events.append(event)
                if on_event:
                    on_event(event, session)
        finally:
            await session.close()
    return events, session, server


@contextlib.asynccontextmanager
async def small_model_session(
    repo: Path, server: ScriptedServer, candidates: int = 3
) -> AsyncIterator[Session]:
    """A full-auto session on `repo` whose model is `server` as a small model, closed after."""
    profile = ModelProfile(
        base_url=server.base_url, model="m", small_model=True, candidates=candidates,
        max_retries=0,
    )  # fmt: skip
    session = Session(
        load_settings(repo, env={}), repo, ScriptedPerson(), Mode.FULL_AUTO,
        client=OpenAICompatClient(profile, backoff_base_s=0.01),
    )  # fmt: skip
    try:
        yield session
    finally:
        await session.close()
