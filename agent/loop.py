"""The plan -> edit -> test -> correct state machine, as an async generator of events.

One call of `run_task` is one request from the person. Each step asks the model once and
runs the tool calls it made; after edits kiln runs the tests itself and feeds the digest
back; `finish` while the tests fail is answered with the digest (up to a limit). Every way
out raises `Stop` with an explicit StopReason, turned into a `Finished` event at the end.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from agent import tools
from agent.approval import Mode
from agent.context import Conversation, truncate
from agent.cost import Meter
from agent.errors import ModelError
from agent.errors import SandboxError as KilnSandboxError
from agent.events import (
    AssistantMessage,
    Checkpointed,
    Event,
    FilesChanged,
    Finished,
    Notice,
    Phase,
    PhaseChanged,
    PlanUpdated,
    StopReason,
    TestsRan,
    ToolCallFinished,
    ToolCallStarted,
    TurnStarted,
    UsageUpdated,
)
from agent.llm.base import Completion, ModelClient, ToolCall
from agent.pump import Cancelled, DeadlinePassed, Emit, Pump
from agent.runstate import RunState, status_for
from agent.testdigest import TestDigest
from agent.tools.gate import ApprovalStop
from agent.tools.shell import run_test_command
from agent.turn import request_turn
from sandbox.base import SandboxError

T = TypeVar("T")
NUDGE = "Continue with a tool call. When the task is done, call finish with a short summary."


class Stop(Exception):
    def __init__(self, reason: StopReason, message: str = "") -> None:
        super().__init__(message or reason.value)
        self.reason = reason
        self.message = message


@dataclass
class LoopDeps:
    """What a run needs; the Session owns all of it and keeps it across runs."""

    client: ModelClient
    tool_context: tools.ToolContext
    conversation: Conversation
    meter: Meter
    cancel: asyncio.Event
    before_change: Callable[[], Awaitable[None]]  # e.g. wait for the baseline test run
    phase: Phase = Phase.PLAN
    last_diff: str = ""

    @property
    def settings(self) -> Any:
        return self.tool_context.settings


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
        async for event in _enter(deps, final):
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


async def _enter(deps: LoopDeps, phase: Phase) -> AsyncIterator[Event]:
    if deps.phase is not phase:
        deps.phase = phase
        yield PhaseChanged(phase)


async def _guarded(
    deps: LoopDeps, state: RunState, work: Callable[[Emit], Awaitable[T]], box: list[T]
) -> AsyncIterator[Event]:
    """Run `work` through a Pump, translating every way it can fail into a Stop."""
    pump = Pump(work, deps.cancel, state.deadline)
    try:
        async for event in pump.events():
            yield event
    except Cancelled:
        raise Stop(StopReason.CANCELLED, "Cancelled.") from None
    except DeadlinePassed:
        raise Stop(StopReason.WALL_CLOCK, "The wall-clock limit was reached.") from None
    except ModelError as exc:
        raise Stop(StopReason.MODEL_ERROR, exc.message) from None
    except (SandboxError, KilnSandboxError) as exc:
        raise Stop(StopReason.SANDBOX_ERROR, str(exc)) from None
    except ApprovalStop as exc:
        raise Stop(
            StopReason.APPROVAL_NEEDED,
            f"`{exc.request.summary}` needs approval, and this run may not ask "
            "(--approval fail); the repository is untouched.",
        ) from None
    box.append(pump.result)


async def _step(deps: LoopDeps, state: RunState) -> AsyncIterator[Event]:
    reason = state.before_step() or deps.meter.over_budget(deps.settings.limits)
    if reason:
        raise Stop(reason, f"Stopped: {reason.value.replace('_', ' ')} reached.")
    state.steps += 1
    yield TurnStarted(state.steps)
    box: list[Completion] = []
    messages, specs = deps.conversation.messages(), tools.specs()
    async for event in _guarded(
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
            deps.conversation.add_feedback(NUDGE)
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
    async for event in _after_changes(deps, state, auto_test=finish is None):
        yield event
    if problems:
        deps.conversation.add_feedback("\n".join(problems))
    if finish is not None:
        async for event in _finish(deps, state, finish):
            yield event
        answered.add(finish.id)


async def _call_tool(deps: LoopDeps, state: RunState, call: ToolCall) -> AsyncIterator[Event]:
    reason = state.before_call(call.name, call.arguments)
    if reason:
        raise Stop(reason, f"Stopped: {reason.value.replace('_', ' ')} ({call.name}).")
    yield ToolCallStarted(call.id, call.name, call.arguments, call.recovered_from_text)
    if call.recovered_from_text:
        yield Notice(f"Recovered a {call.name} call the model wrote as text.")
    if call.name in ("edit_file", "write_file"):
        async for event in _enter(deps, Phase.EDIT):
            yield event
    elif call.name == "run_tests":
        async for event in _enter(deps, Phase.TEST):
            yield event
    if call.name not in tools.READ_ONLY:
        await deps.before_change()
    started = time.monotonic()
    box: list[tools.ToolResult] = []

    async def work(emit: Emit) -> tools.ToolResult:
        context = dataclasses.replace(deps.tool_context, emit=emit)
        return await tools.call(context, call.name, call.arguments)

    async for event in _guarded(deps, state, work, box):
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
        async for event in _record_tests(deps, state, result.tests):
            yield event


async def _record_tests(
    deps: LoopDeps, state: RunState, report: TestDigest
) -> AsyncIterator[Event]:
    state.last_tests = report
    state.edits_since_tests = False
    yield TestsRan(
        report.command,
        report.passed,
        report.failed,
        report.errors,
        report.exit_code,
        report.failing,
        report.text,
        report.duration_s,
    )
    if not report.ok and state.edited:
        async for event in _enter(deps, Phase.CORRECT):
            yield event


async def _run_tests(deps: LoopDeps, state: RunState) -> AsyncIterator[Event]:
    async for event in _enter(deps, Phase.TEST):
        yield event
    box: list[TestDigest] = []
    async for event in _guarded(deps, state, lambda emit: run_test_command(deps.tool_context), box):
        yield event
    async for event in _record_tests(deps, state, box[0]):
        yield event


async def _after_changes(
    deps: LoopDeps, state: RunState, *, auto_test: bool
) -> AsyncIterator[Event]:
    """If the workspace changed: report it, checkpoint it, and run the tests."""
    box: list[tuple[str, list[str]]] = []

    async def inspect(emit: Emit) -> tuple[str, list[str]]:
        sandbox = deps.tool_context.sandbox
        return await sandbox.diff(), await sandbox.changed_files()

    if not state.pending_change:
        return
    state.pending_change = False
    async for event in _guarded(deps, state, inspect, box):
        yield event
    diff, paths = box[0]
    if diff == deps.last_diff:
        return
    deps.last_diff = diff
    state.edited = state.edits_since_tests = True
    yield FilesChanged(tuple(paths))
    label = f"step {state.steps}"
    refs: list[str] = []
    async for event in _guarded(
        deps, state, lambda emit: deps.tool_context.sandbox.checkpoint(label), refs
    ):
        yield event
    yield Checkpointed(refs[0], label)
    settings = deps.settings
    if auto_test and settings.tests.run_after_edits and deps.tool_context.test_command:
        async for event in _run_tests(deps, state):
            yield event
        assert state.last_tests is not None
        deps.conversation.add_feedback(
            "[kiln ran the tests after your edits]\n" + state.last_tests.text
        )


async def _finish(deps: LoopDeps, state: RunState, call: ToolCall) -> AsyncIterator[Event]:
    """Accept `finish`, unless the tests fail: then answer with the digest, up to a limit."""
    # A refused finish is naturally repeated; max_finish_refusals bounds that, not loop detection.
    reason = state.before_call(call.name, call.arguments, track_repeats=False)
    if reason:
        raise Stop(reason, f"Stopped: {reason.value.replace('_', ' ')} (finish).")
    summary = str(call.arguments.get("summary") or "").strip() or "(no summary given)"
    yield ToolCallStarted(call.id, call.name, call.arguments, call.recovered_from_text)
    started = time.monotonic()
    # Plan mode cannot edit, so refusing its finish over failing tests would only loop.
    has_tests = (
        bool(deps.tool_context.test_command) and deps.tool_context.gate.mode is not Mode.PLAN
    )
    # Also when nothing ran yet: a model that finishes without editing must not slip past
    # tests that failed before it started.
    if has_tests and (state.edits_since_tests or state.last_tests is None):
        async for event in _run_tests(deps, state):
            yield event
    report = state.last_tests
    if has_tests and report is not None and not report.ok:
        state.finish_refusals += 1
        limit = deps.settings.tests.max_finish_refusals
        output = "Not finished: the tests still fail. Fix them, then call finish again.\n"
        output += report.text
        yield ToolCallFinished(call.id, call.name, False, output, time.monotonic() - started)
        deps.conversation.add_tool_result(call, output)
        if state.finish_refusals > limit:
            raise Stop(StopReason.TESTS_STILL_FAILING, summary)
        async for event in _enter(deps, Phase.CORRECT):
            yield event
        return
    yield ToolCallFinished(call.id, call.name, True, "Finished.", time.monotonic() - started)
    deps.conversation.add_tool_result(call, "Finished.")
    raise Stop(StopReason.DONE, summary)
