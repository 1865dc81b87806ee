"""After the model acts: notice workspace changes, checkpoint, run the tests, judge `finish`."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

from agent.approval import Mode
from agent.events import (
    Checkpointed,
    Event,
    FilesChanged,
    Phase,
    StopReason,
    TestsRan,
    ToolCallFinished,
    ToolCallStarted,
)
from agent.llm.base import ToolCall
from agent.prompts.small_model import after_small_model_edit
from agent.run.deps import LoopDeps, Stop, enter, guarded
from agent.run.pump import Emit
from agent.run.state import RunState
from agent.tools.shell import run_test_command
from agent.tools.testdigest import TestDigest


async def record_tests(deps: LoopDeps, state: RunState, report: TestDigest) -> AsyncIterator[Event]:
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
        async for event in enter(deps, Phase.CORRECT):
            yield event


async def _run_tests(deps: LoopDeps, state: RunState) -> AsyncIterator[Event]:
    async for event in enter(deps, Phase.TEST):
        yield event
    box: list[TestDigest] = []
    async for event in guarded(deps, state, lambda emit: run_test_command(deps.tool_context), box):
        yield event
    async for event in record_tests(deps, state, box[0]):
        yield event


async def after_changes(
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
    async for event in guarded(deps, state, inspect, box):
        yield event
    diff, paths = box[0]
    if diff == deps.last_diff:
        return
    deps.last_diff = diff
    state.edited = state.edits_since_tests = True
    yield FilesChanged(tuple(paths))
    label = f"step {state.steps}"
    refs: list[str] = []
    async for event in guarded(
        deps, state, lambda emit: deps.tool_context.sandbox.checkpoint(label), refs
    ):
        yield event
    yield Checkpointed(refs[0], label)
    settings = deps.settings
    if auto_test and settings.tests.run_after_edits and deps.tool_context.test_command:
        async for event in _run_tests(deps, state):
            yield event
        assert state.last_tests is not None
        feedback = "[kiln ran the tests after your edits]\n" + state.last_tests.text
        if deps.client.profile.small_model:
            async for event in after_small_model_edit(deps, state, paths, feedback):
                yield event
        else:
            deps.conversation.add_feedback(feedback)


async def judge_finish(deps: LoopDeps, state: RunState, call: ToolCall) -> AsyncIterator[Event]:
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
        async for event in enter(deps, Phase.CORRECT):
            yield event
        return
    yield ToolCallFinished(call.id, call.name, True, "Finished.", time.monotonic() - started)
    deps.conversation.add_tool_result(call, "Finished.")
    raise Stop(StopReason.DONE, summary)
