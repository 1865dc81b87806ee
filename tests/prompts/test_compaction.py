"""Must hold: /compact summarises through the model and keeps the person's words, the plan,
the failing tests and the changed files verbatim; tier 1 only shortens old outputs; the
history stays a valid conversation (no tool result without its call)."""

from __future__ import annotations

from pathlib import Path

from agent.approval import Mode
from agent.commands import Commands
from agent.events import Compacted
from agent.llm.base import Message, ModelProfile, ToolCall
from agent.llm.openai_compat import OpenAICompatClient
from agent.llm.scripted.server import ScriptedServer
from agent.prompts import compaction
from agent.session import Session
from agent.settings.config import load_settings
from tests.scripted import FIX_SCRIPT, ScriptedPerson

SUMMARY = "Read calc.py; add() subtracted; changed it to a + b; tests pass."


async def test_compact_on_demand_summarises_and_keeps_what_steers(
    docker_ready: None, buggy_repo: Path
) -> None:
    script = [
        *FIX_SCRIPT,
        {"text": SUMMARY},
        {"tool_calls": [{"name": "finish", "arguments": {"summary": "ok"}}]},
    ]
    with ScriptedServer(script) as server:
        profile = ModelProfile(base_url=server.base_url, model="scripted", max_retries=0)
        session = Session(
            load_settings(buggy_repo, env={}), buggy_repo, ScriptedPerson(), Mode.FULL_AUTO,
            client=OpenAICompatClient(profile),
        )  # fmt: skip
        commands = Commands(session.settings, Mode.FULL_AUTO)
        commands.session = session
        try:
            async for _ in session.run("fix add, and keep the style"):
                pass
            [event] = [o async for o in commands.run("/compact") if isinstance(o, Compacted)]
            assert isinstance(event, Compacted) and event.tier == 2
            # The conversation is tiny here, so only what was summarised is checked, not size.
            assert event.summary == SUMMARY and event.compacted >= 4
            assert "the plan" in event.kept and "1 changed file name(s)" in event.kept
            async for _ in session.run("now say done"):
                pass
            opening = server.chat_requests[-1].body["messages"][1]["content"]
        finally:
            await session.close()
    assert "fix add, and keep the style" in opening and SUMMARY in opening
    assert "[in_progress] fix add" in opening or "fix add" in opening
    assert "Files changed so far: calc.py" in opening


def test_tier_one_stubs_old_outputs_and_keeps_recent_ones() -> None:
    history: list[Message] = [Message("user", "task")]
    for i in range(6):
        call = ToolCall(f"c{i}", "run", {"command": f"seq {i}"})
        history += [
            Message("assistant", "", (call,)),
            Message("tool", "n\n" * 400, tool_call_id=f"c{i}", name="run"),
        ]
    outcome = compaction.stub_old_outputs(history)
    stubs = [m for m in outcome.history if m.content.startswith(compaction.STUB_PREFIX)]
    assert outcome.compacted == len(stubs) == 4  # the last four messages are kept whole
    assert "run(command='seq 0')" in stubs[0].content
    assert [m.tool_call_id for m in outcome.history] == [m.tool_call_id for m in history]


def test_the_summarised_part_ends_before_an_assistant_turn() -> None:
    call = ToolCall("c", "read_file", {"path": "a.py"})
    history = [Message("user", "task")]
    history += [
        Message("assistant", "", (call,)),
        Message("tool", "x", tool_call_id="c", name="read_file"),
    ] * 5
    cut = compaction.split_for_summary(history)
    assert cut > 0 and history[cut].role == "assistant"
    pinned = compaction.Pinned(("task",))
    rebuilt = compaction.with_summary(history, cut, "s", pinned).history
    assert rebuilt[0].role == "user" and rebuilt[1].role == "assistant"


async def test_the_fast_model_writes_the_summary_and_is_metered_as_fast(
    docker_ready: None, buggy_repo: Path
) -> None:
    script = [*FIX_SCRIPT]
    with ScriptedServer(script) as main, ScriptedServer([{"text": SUMMARY}]) as fast:
        settings = load_settings(
            buggy_repo, {"models.fast.base_url": fast.base_url, "models.fast.model": "f"}, env={}
        )
        profile = ModelProfile(base_url=main.base_url, model="scripted", max_retries=0)
        session = Session(
            settings, buggy_repo, ScriptedPerson(), Mode.FULL_AUTO,
            client=OpenAICompatClient(profile),
        )  # fmt: skip
        commands = Commands(session.settings, Mode.FULL_AUTO)
        commands.session = session
        try:
            async for _ in session.run("fix add"):
                pass
            [event] = [o async for o in commands.run("/compact") if isinstance(o, Compacted)]
            assert session.store is not None
            roles = [r["role"] for r in session.store.requests(session.session_id)]
        finally:
            await session.close()
        assert event.summary == SUMMARY
        assert len(fast.chat_requests) == 1 and all(r.body.get("tools") for r in main.chat_requests)
    assert roles.count("fast") == 1 and roles.count("main") == len(roles) - 1
