"""The loop end to end: scripted model over real HTTP, real Docker sandbox, real git repo."""

from __future__ import annotations

import itertools
import json
import time
from pathlib import Path
from typing import Any

from agent import events as ev
from agent.approval import Decision, Mode, Verdict
from agent.events import (
    ApprovalRequested,
    Checkpointed,
    Event,
    FilesChanged,
    Finished,
    Phase,
    PhaseChanged,
    PlanUpdated,
    StopReason,
    ToolCallFinished,
    TurnStarted,
)
from agent.llm.base import Prices
from agent.session import Session
from tests.scripted import FIX_SCRIPT, ScriptedPerson, run_scripted, settings_with


def finished(events: list[Event]) -> Finished:
    last = events[-1]
    assert isinstance(last, Finished), last
    return last


def _call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


def _sent_messages(request: Any) -> list[dict[str, Any]]:
    return request.body["messages"]


async def test_plan_edit_test_finish(docker_ready: None, buggy_repo: Path) -> None:
    events, session, server = await run_scripted(buggy_repo, FIX_SCRIPT)
    end = finished(events)
    assert end.stop_reason is StopReason.DONE and end.summary == "add adds now"
    phases = [e.phase for e in events if isinstance(e, PhaseChanged)]
    assert phases[0] is Phase.PLAN and Phase.EDIT in phases and phases[-1] is Phase.DONE
    assert any(isinstance(e, PlanUpdated) for e in events)
    assert [e.paths for e in events if isinstance(e, FilesChanged)] == [("calc.py",)]
    assert len([e for e in events if isinstance(e, Checkpointed)]) == 1
    # The model's run_tests right after kiln's own run reuses it: nothing changed since.
    rerun = next(e for e in events if isinstance(e, ToolCallFinished) and e.name == "run_tests")
    assert "these results are current" in rerun.output
    runs = [e for e in events if isinstance(e, ev.TestsRan)]
    assert runs and all(r.failed == 0 and r.passed == 1 for r in runs)
    assert session.tests_before is not None and session.tests_before.failed == 1
    assert session.tests_after is not None and session.tests_after.ok
    # Every request extends the previous one: the prompt prefix stays cacheable.
    bodies = [_sent_messages(r) for r in server.chat_requests]
    for before, after in itertools.pairwise(bodies):
        assert after[: len(before)] == before
    # After the edit kiln ran the tests and told the model, in the edit's tool result.
    edit_result = bodies[3][-1]
    assert edit_result["role"] == "tool" and "[kiln ran the tests" in edit_result["content"]
    assert (buggy_repo / "calc.py").read_text().endswith("a - b\n")  # nothing applied yet
    assert end.usage.prompt_total > 0 and end.usage.cached_input > 0


async def test_finish_while_tests_fail_is_refused_then_stops(
    docker_ready: None, buggy_repo: Path
) -> None:
    script = [
        _call("edit_file", path="calc.py", old_text="a - b", new_text="a * b"),
        _call("finish", summary="done?"),
        _call("finish", summary="really done"),
    ]
    settings = settings_with(buggy_repo, **{"tests.max_finish_refusals": 1})
    events, _, server = await run_scripted(buggy_repo, script, settings=settings)
    assert finished(events).stop_reason is StopReason.TESTS_STILL_FAILING
    refusal = _sent_messages(server.chat_requests[-1])[-1]
    assert "the tests still fail" in refusal["content"] and "6 != 5" in refusal["content"]


async def test_repeated_call_stops(docker_ready: None, buggy_repo: Path) -> None:
    script = {"loop": True, "turns": [_call("read_file", path="calc.py")]}
    events, _, _ = await run_scripted(buggy_repo, script)
    end = finished(events)
    assert end.stop_reason is StopReason.REPEATED_CALL and end.status == "limit"
    assert end.tool_calls == 4


async def test_max_steps_and_max_tool_calls(docker_ready: None, buggy_repo: Path) -> None:
    script = {
        "loop": True,
        "turns": [_call("read_file", path="calc.py"), _call("read_file", path="test_calc.py")],
    }
    settings = settings_with(buggy_repo, **{"limits.max_steps": 3})
    events, _, _ = await run_scripted(buggy_repo, script, settings=settings)
    assert finished(events).stop_reason is StopReason.MAX_STEPS
    assert len([e for e in events if isinstance(e, TurnStarted)]) == 3
    settings = settings_with(buggy_repo, **{"limits.max_tool_calls": 2})
    events, _, _ = await run_scripted(buggy_repo, script, settings=settings)
    assert finished(events).stop_reason is StopReason.MAX_TOOL_CALLS


async def test_format_errors_are_corrected_then_stop(docker_ready: None, buggy_repo: Path) -> None:
    # Two broken calls, then a clean one: the corrections went back and the run goes on.
    recovering = [
        {**_call("read_file", path="calc.py"), "fault": ["invalid_tool_args", "invalid_tool_args"]},
        _call("finish", summary="looked"),
    ]
    passing = settings_with(buggy_repo, **{"tests.command": "true"})
    # A question: its finish needs no change to be accepted.
    events, _, server = await run_scripted(
        buggy_repo, recovering, "What does calc.py hold?", settings=passing
    )
    assert finished(events).stop_reason is StopReason.DONE
    correction = _sent_messages(server.chat_requests[1])[-1]
    assert correction["role"] == "user" and "read_file" in correction["content"]
    hopeless = [{**_call("read_file", path="calc.py"), "fault": ["invalid_tool_args"] * 5}]
    events, _, _ = await run_scripted(buggy_repo, hopeless)
    assert finished(events).stop_reason is StopReason.FORMAT_ERRORS


async def test_budgets(docker_ready: None, buggy_repo: Path) -> None:
    script = {
        "loop": True,
        "turns": [_call("read_file", path="calc.py"), _call("search", pattern="add")],
    }
    settings = settings_with(buggy_repo, **{"limits.budget_usd": 0.01})
    events, session, _ = await run_scripted(
        buggy_repo, script, settings=settings, prices=Prices(input=10.0, output=10.0)
    )
    assert finished(events).stop_reason is StopReason.DOLLAR_BUDGET
    assert session.cost_usd >= 0.01
    settings = settings_with(buggy_repo, **{"limits.max_tokens": 3000})
    events, session, _ = await run_scripted(buggy_repo, script, settings=settings)
    assert finished(events).stop_reason is StopReason.TOKEN_BUDGET
    assert session.usage.prompt_total + session.usage.output >= 3000


async def test_wall_clock_interrupts_a_slow_model(docker_ready: None, buggy_repo: Path) -> None:
    script = [{**_call("read_file", path="calc.py"), "fault": "slow_first_token", "delay_s": 20}]
    settings = settings_with(buggy_repo, **{"limits.timeout_s": 1.0})
    events, _, _ = await run_scripted(buggy_repo, script, settings=settings)
    end = finished(events)
    assert end.stop_reason is StopReason.WALL_CLOCK and end.duration_s < 10


async def test_the_wall_clock_counts_from_when_the_person_asked(
    docker_ready: None, buggy_repo: Path
) -> None:
    # `kiln run` passes its own start: a slow start must not push the end past the clock.
    script = [{**_call("read_file", path="calc.py"), "fault": "slow_first_token", "delay_s": 20}]
    settings = settings_with(buggy_repo, **{"limits.timeout_s": 8.0})
    called = time.monotonic()
    events, _, _ = await run_scripted(buggy_repo, script, settings=settings, clock_from=called - 6)
    end = finished(events)
    assert end.stop_reason is StopReason.WALL_CLOCK and end.duration_s >= 8
    assert time.monotonic() - called < 7  # the 6 s before the call counted; alone, 8 s would


async def test_model_error_stops_with_one_sentence(docker_ready: None, buggy_repo: Path) -> None:
    events, _, _ = await run_scripted(buggy_repo, [{"text": "x", "fault": ["500"] * 3}])
    end = finished(events)
    assert end.stop_reason is StopReason.MODEL_ERROR and end.status == "error"
    assert end.summary and "\n" not in end.summary


async def test_no_action_after_a_nudge(docker_ready: None, buggy_repo: Path) -> None:
    events, _, server = await run_scripted(
        buggy_repo, [{"text": "I would fix it."}, {"text": "Yes."}]
    )
    assert finished(events).stop_reason is StopReason.NO_ACTION
    assert "call finish" in _sent_messages(server.chat_requests[-1])[-1]["content"]


async def test_fail_mode_stops_at_the_first_edit(docker_ready: None, buggy_repo: Path) -> None:
    before = {p.name: p.read_bytes() for p in buggy_repo.iterdir() if p.is_file()}
    events, _, _ = await run_scripted(buggy_repo, FIX_SCRIPT, mode=Mode.FAIL)
    end = finished(events)
    assert end.stop_reason is StopReason.APPROVAL_NEEDED and "edit calc.py" in end.summary
    assert {p.name: p.read_bytes() for p in buggy_repo.iterdir() if p.is_file()} == before


async def test_ask_mode_always_is_remembered(docker_ready: None, buggy_repo: Path) -> None:
    script = [
        _call("edit_file", path="calc.py", old_text="a - b", new_text="b - a"),
        _call("edit_file", path="calc.py", old_text="b - a", new_text="a + b"),
        _call("finish", summary="fixed"),
    ]
    person = ScriptedPerson(Decision(Verdict.ALWAYS))
    events, _, _ = await run_scripted(buggy_repo, script, mode=Mode.ASK, person=person)
    assert finished(events).stop_reason is StopReason.DONE
    assert len(person.asked) == 1
    assert len([e for e in events if isinstance(e, ApprovalRequested)]) == 1


async def test_cancel_then_follow_up_keeps_history(docker_ready: None, buggy_repo: Path) -> None:
    import asyncio

    from agent.llm.base import ModelProfile
    from agent.llm.openai_compat import OpenAICompatClient
    from agent.llm.scripted.server import ScriptedServer

    script = [
        {**_call("read_file", path="calc.py"), "fault": "slow_first_token", "delay_s": 30},
        _call("finish", summary="second request done"),
    ]
    settings = settings_with(buggy_repo, **{"tests.command": "true"})
    with ScriptedServer(script) as server:
        client = OpenAICompatClient(ModelProfile(base_url=server.base_url, model="m"))
        session = Session(settings, buggy_repo, ScriptedPerson(), Mode.AUTO_EDIT, client=client)
        try:
            first: list[Event] = []
            async for event in session.run("first"):
                first.append(event)
                if isinstance(event, TurnStarted):  # Esc while the model is thinking
                    asyncio.get_running_loop().call_later(0.5, session.cancel)
            assert finished(first).stop_reason is StopReason.CANCELLED
            assert finished(first).duration_s < 10
            # A question, so its finish is accepted with nothing changed.
            second = [e async for e in session.run("What is second?")]
            assert finished(second).stop_reason is StopReason.DONE
            assert server.chat_requests[0].outcome == "disconnected"  # the request really ended
            sent = [
                m["content"]
                for m in server.chat_requests[-1].body["messages"]
                if m["role"] == "user"
            ]
            assert sent[0] == "first" and sent[1].startswith("What is second?\n\n[kiln: ")
            assert len(sent) == 2
        finally:
            await session.close()


async def test_undo_restores_the_previous_checkpoint(docker_ready: None, buggy_repo: Path) -> None:
    from agent.llm.base import ModelProfile
    from agent.llm.openai_compat import OpenAICompatClient
    from agent.llm.scripted.server import ScriptedServer

    script = [
        _call("write_file", path="notes.txt", content="one\n"),
        _call("edit_file", path="calc.py", old_text="a - b", new_text="a + b"),
        _call("finish", summary="done"),
    ]
    with ScriptedServer(script) as server:
        client = OpenAICompatClient(ModelProfile(base_url=server.base_url, model="m"))
        session = Session(
            settings_with(buggy_repo), buggy_repo, ScriptedPerson(), Mode.AUTO_EDIT, client=client
        )
        try:
            events = [e async for e in session.run("two steps")]
            assert len([e for e in events if isinstance(e, Checkpointed)]) == 2
            assert "a + b" in await session.diff()
            assert await session.undo() == "step 1"
            diff = await session.diff()
            assert "notes.txt" in diff and "a + b" not in diff
            assert await session.undo() == "start"
            assert await session.diff() == ""
        finally:
            await session.close()


async def test_store_keeps_everything_and_resume_rebuilds(
    docker_ready: None, buggy_repo: Path
) -> None:
    from agent.store.db import Store

    _events, session, _ = await run_scripted(buggy_repo, FIX_SCRIPT)
    store = Store()
    row = store.find(session.session_id)
    assert row is not None and row.status == "done" and row.steps == 5 and row.title == "fix add"
    stored = store.events(session.session_id)
    assert stored[0]["type"] == "session_started" and stored[-1]["type"] == "finished"
    assert len(store.requests(session.session_id)) == 5
    tool_rows = store.db.execute(
        "SELECT name, ok FROM tool_calls WHERE session_id = ? ORDER BY started",
        (session.session_id,),
    ).fetchall()
    assert [name for name, _ in tool_rows] == [
        "read_file",
        "update_plan",
        "edit_file",
        "run_tests",
        "finish",
    ]
    resumed = Session.load("last", settings_with(buggy_repo), ScriptedPerson())
    assert resumed.session_id == session.session_id
    assert [m.role for m in resumed.conversation.history] == [
        m.role for m in session.conversation.history
    ]
    assert isinstance(resumed.events[-1], Finished)
    assert "a + b" in resumed._restore_diff
    assert json.loads(json.dumps(stored))  # export shape is plain JSON


async def test_tool_results_reach_the_model(docker_ready: None, buggy_repo: Path) -> None:
    passing = settings_with(buggy_repo, **{"tests.command": "true"})
    events, _, server = await run_scripted(
        buggy_repo, FIX_SCRIPT[:1] + FIX_SCRIPT[-1:], settings=passing
    )
    read = next(e for e in events if isinstance(e, ToolCallFinished) and e.name == "read_file")
    assert "return a - b" in read.output
    tool_message = _sent_messages(server.chat_requests[1])[-1]
    assert tool_message["role"] == "tool" and "return a - b" in tool_message["content"]
