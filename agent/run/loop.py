"""The plan -> edit -> test -> correct state machine, as an async generator of events.

One call of `run_task` is one request from the person. Each step asks the model once and
runs the tool calls it made; after edits kiln runs the tests itself and feeds the digest
back; `finish` while the tests fail is answered with the digest (up to a limit). Every way
out raises `Stop` with an explicit StopReason, turned into a `Finished` event at the end.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import AsyncIterator

from agent import tools
from agent.events import (
    AssistantMessage,
    Event,
    Finished,
    Notice,
    Phase,
    PhaseChanged,
    PlanUpdated,
    StopReason,
    ToolCallFinished,
    ToolCallStarted,
    TurnStarted,
    UsageUpdated,
)
from agent.llm.base import Completion, ToolCall
from agent.prompts.briefing import code_file_in
from agent.prompts.conversation import nudge, truncate
from agent.run.checks import after_changes, judge_finish, record_tests
from agent.run.deps import LoopDeps, Stop, enter, guarded
from agent.run.pump import Emit
from agent.run.state import RunState, status_for
from agent.run.turn import request_turn

__all__ = ["LoopDeps", "Stop", "run_task"]


async def run_task(deps: LoopDeps, task: str, state: RunState) -> AsyncIterator[Event]:
    deps.conversation.add_user(task)
    deps.cancel.clear()
    deps.phase = Phase.PLAN  # every request starts by looking, announced even if repeated
    yield PhaseChanged(Phase.PLAN)
    try:
        while True:
            async for event in _step(deps, state):
                yield event
    except Stop as stop:
        final = Phase.DONE if stop.reason is StopReason.DONE else Phase.FAILED
        async for event in enter(deps, final):
            yield event
        yield Finished(
            status=status_for(stop.reason),
            stop_reason=stop.reason,
            summary=stop.message,
            steps=state.steps,
            tool_calls=state.tool_calls,
            usage=deps.meter.total,
            cost_usd=deps.meter.cost_usd,
            duration_s=state.elapsed,
        )


async def _step(deps: LoopDeps, state: RunState) -> AsyncIterator[Event]:
    reason = state.before_step() or deps.meter.over_budget(deps.settings.limits)
    if reason:
        raise Stop(reason, f"Stopped: {reason.value.replace('_', ' ')} reached.")
    state.steps += 1
    yield TurnStarted(state.steps)
    box: list[Completion] = []
    messages, specs = deps.conversation.messages(), tools.specs()
    async for event in guarded(
        deps, state, lambda emit: request_turn(deps.client, messages, specs, deps.meter, emit), box
    ):
        yield event
    completion = box[0]
    deps.meter.add(completion.usage)
    yield UsageUpdated(
        deps.meter.total,
        completion.usage,
        deps.meter.cost_usd,
        ttft_s=completion.ttft_s,
        duration_s=completion.duration_s,
    )
    message = completion.message
    if message.content.strip():
        yield AssistantMessage(message.content)
    deps.conversation.add_assistant(message)
    answered: set[str] = set()
    try:
        async for event in _act(deps, state, completion, answered):
            yield event
    finally:
        for call in message.tool_calls:  # every call needs a result, even when we stop
            if call.id not in answered:
                deps.conversation.add_tool_result(call, "Not run: the run stopped first.")


async def _act(
    deps: LoopDeps, state: RunState, completion: Completion, answered: set[str]
) -> AsyncIterator[Event]:
    calls = completion.message.tool_calls
    problems = [p.correction for p in completion.format_problems]
    state.format_errors = state.format_errors + 1 if problems else 0
    if state.format_errors >= deps.settings.limits.format_error_limit:
        raise Stop(StopReason.FORMAT_ERRORS, "Too many malformed tool calls in a row.")
    if not calls:
        state.idle_replies += 1
        if problems:
            deps.conversation.add_feedback("\n".join(problems))
        elif state.idle_replies >= 2:
            raise Stop(StopReason.NO_ACTION, completion.message.content.strip()[:2000])
        else:
            deps.conversation.add_feedback(_nudge(deps, state))
        return
    state.idle_replies = 0
    finish: ToolCall | None = None
    for call in calls:
        if call.name == "finish" and finish is None:
            finish = call  # answered after the other calls of this turn
            continue
        async for event in _call_tool(deps, state, call):
            yield event
        answered.add(call.id)
    async for event in after_changes(deps, state, auto_test=finish is None):
        yield event
    if problems:
        deps.conversation.add_feedback("\n".join(problems))
    if finish is not None:
        async for event in judge_finish(deps, state, finish):
            yield event
        answered.add(finish.id)


def _nudge(deps: LoopDeps, state: RunState) -> str:
    if not deps.client.profile.small_model:
        return nudge(False)
    return nudge(True, code_file_in(state.last_tests.text) if state.last_tests else "")


async def _call_tool(deps: LoopDeps, state: RunState, call: ToolCall) -> AsyncIterator[Event]:
    reason = state.before_call(call.name, call.arguments)
    if reason:
        raise Stop(reason, f"Stopped: {reason.value.replace('_', ' ')} ({call.name}).")
    yield ToolCallStarted(call.id, call.name, call.arguments, call.recovered_from_text)
    if call.recovered_from_text:
        yield Notice(f"Recovered a {call.name} call the model wrote as text.")
    if call.name in ("edit_file", "write_file"):
        async for event in enter(deps, Phase.EDIT):
            yield event
    elif call.name == "run_tests":
        async for event in enter(deps, Phase.TEST):
            yield event
    if call.name not in tools.READ_ONLY:
        await deps.before_change()
    started = time.monotonic()
    box: list[tools.ToolResult] = []

    async def work(emit: Emit) -> tools.ToolResult:
        fresh = _fresh_test_result(state, call)
        if fresh is not None:
            return fresh
        context = dataclasses.replace(deps.tool_context, emit=emit)
        return await tools.call(context, call.name, call.arguments)

    async for event in guarded(deps, state, work, box):
        yield event
    result = box[0]
    shown, cut = truncate(result.output)
    yield ToolCallFinished(
        call.id,
        call.name,
        result.ok,
        shown,
        time.monotonic() - started,
        result.exit_code,
        cut or result.truncated,
    )
    deps.conversation.add_tool_result(call, result.output)
    state.pending_change = state.pending_change or result.edited
    if result.plan is not None:
        yield PlanUpdated(result.plan)
    if result.tests is not None:
        async for event in record_tests(deps, state, result.tests):
            yield event


def _fresh_test_result(state: RunState, call: ToolCall) -> tools.ToolResult | None:
    """kiln's own test run is still current (nothing changed since): no need to run again."""
    report = state.last_tests
    if call.name != "run_tests" or call.arguments.get("args") or report is None:
        return None
    if state.edits_since_tests or state.pending_change:
        return None
    note = "\n(no file changed since the last run, so these results are current)"
    return tools.ToolResult(report.ok, report.text + note, exit_code=report.exit_code, tests=report)
