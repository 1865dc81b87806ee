"""After the model acts: notice workspace changes, checkpoint, run the tests, judge `finish`."""

from __future__ import annotations

import time

from agent.approval import Mode
from agent.events import (
    Checkpointed,
    FilesChanged,
    Phase,
    StopReason,
    TestsRan,
    ToolCallFinished,
    ToolCallStarted,
)
from agent.llm.base import ToolCall
from agent.run.candidates import try_candidates
from agent.run.core import Run
from agent.run.stops import Stop, limit_stop
from agent.tools.control import finish_summary
from agent.tools.shell import run_test_command
from agent.tools.testdigest import TestDigest, judged_against


def record_tests(run: Run, report: TestDigest) -> TestDigest:
    """Record a test run (judged: see `_against_before`) and say it; returns it as judged."""
    report = _against_before(run, report)
    state = run.state
    state.last_tests = report
    state.edits_since_tests = False
    run.emit(
        TestsRan(
            report.command,
            report.passed,
            report.failed,
            report.errors,
            report.exit_code,
            report.failing,
            report.text,
            report.duration_s,
        )
    )
    if not report.ok and state.edited:
        run.enter(Phase.CORRECT)
    return report


def _against_before(run: Run, report: TestDigest) -> TestDigest:
    """A full run of the test command where none ran, after the baseline or an earlier
    full run had tests, is a failure: deleting the tests must not end a run as passing.
    A run the model narrowed (extra arguments) is taken as it is."""
    deps = run.deps
    if report.command != run.tool_context.test_command:
        return report
    baseline = deps.tests_before()
    at_start = baseline.ran if baseline is not None and baseline.command == report.command else 0
    before = max(deps.most_tests_ran, at_start)
    deps.most_tests_ran = max(before, report.ran)
    return judged_against(report, before)


async def run_tests(run: Run) -> TestDigest:
    run.enter(Phase.TEST)
    return record_tests(run, await run_test_command(run.tool_context))


async def after_changes(run: Run, *, auto_test: bool) -> None:
    """If the workspace changed: report it, checkpoint it, and run the tests."""
    state, deps = run.state, run.deps
    if not state.pending_change:
        return
    state.pending_change = False
    diff, paths = await run.sandbox.diff(), await run.sandbox.changed_files()
    if diff == deps.last_diff:
        return
    deps.last_diff = diff
    state.edited = state.edits_since_tests = True
    run.emit(FilesChanged(tuple(paths)))
    before_edit = run.sandbox.last_checkpoint or run.sandbox.baseline
    label = f"step {state.steps}"
    run.emit(Checkpointed(await run.sandbox.checkpoint(label), label))
    if auto_test and run.settings.tests.run_after_edits and deps.tool_context.test_command:
        before = state.last_tests
        report = await run_tests(run)
        run.conversation.add_feedback(await deps.policy.after_edit(report, paths, run.sandbox))
        this_step = state.last_edit_step == state.steps  # the change was that edit
        if not report.ok and before_edit and this_step and candidates_allowed(run):
            assert state.last_edit is not None
            report = await _candidates(run, state.last_edit, before_edit, report) or report
        if state.after_edit_tests(before, report):
            n = state.edits_without_progress
            raise limit_stop(
                StopReason.NO_PROGRESS, f"{n} edits in a row left the tests as they were"
            )


MAX_CANDIDATE_ROUNDS = 2  # per request: sampling is the slow part of a small model's run
FAILED_EDITS_BEFORE_CANDIDATES = 2


async def after_failed_edit(run: Run, call: ToolCall) -> bool:
    """An edit that did not apply, again: sample other edits instead of a third try of
    the same. True when one was kept."""
    state = run.state
    if state.edits_without_progress < FAILED_EDITS_BEFORE_CANDIDATES:
        return False
    if not candidates_allowed(run) or not run.deps.tool_context.test_command:
        return False
    tests = state.last_tests or await run_tests(run)  # what candidates must beat
    if tests.ok:
        return False
    here = await run.sandbox.checkpoint(f"step {state.steps} (before candidates)")
    return await _candidates(run, call, here, tests) is not None


async def _candidates(
    run: Run, failed: ToolCall, base_ref: str, current: TestDigest
) -> TestDigest | None:
    """One round of candidates; the kept one becomes the workspace's latest state."""
    state, deps = run.state, run.deps
    state.candidate_rounds += 1
    temperature = deps.client.profile.candidate_temperature
    better = await try_candidates(run, failed, base_ref, current, candidate_count(run), temperature)
    if better is None:
        return None
    state.last_tests = better
    state.edited = True
    state.edits_without_progress = 0
    deps.last_diff = await run.sandbox.diff()
    run.emit(FilesChanged(tuple(await run.sandbox.changed_files())))
    label = f"step {state.steps} (best candidate)"
    run.emit(Checkpointed(await run.sandbox.checkpoint(label), label))
    return better


def candidate_count(run: Run) -> int:
    profile = run.deps.client.profile
    # A small model's samples are cheap (the prompt is cached, the reply a line or two)
    # and each is one more chance the tests can recognise.
    return profile.candidates if profile.candidates >= 0 else (8 if profile.small_model else 0)


def candidates_allowed(run: Run) -> bool:
    """Edits that need no asking (candidates are edits too), an edit to redo, rounds left."""
    mode = run.deps.tool_context.gate.mode
    return (
        candidate_count(run) > 0
        and mode in (Mode.AUTO_EDIT, Mode.FULL_AUTO)
        and run.state.candidate_rounds < MAX_CANDIDATE_ROUNDS
    )


async def judge_finish(run: Run, call: ToolCall) -> None:
    """Accept `finish` (raising Stop(DONE)), unless the tests fail: then answer with the
    digest, up to a limit."""
    state, deps = run.state, run.deps
    summary = finish_summary(call.arguments)
    run.emit(ToolCallStarted(call.id, call.name, call.arguments, call.recovered_from_text))
    started = time.monotonic()
    # Plan mode cannot edit, so refusing its finish over failing tests would only loop.
    has_tests = (
        bool(deps.tool_context.test_command) and deps.tool_context.gate.mode is not Mode.PLAN
    )
    # Also when nothing ran yet: a model that finishes without editing must not slip past
    # tests that failed before it started.
    if has_tests and (state.edits_since_tests or state.last_tests is None):
        await run_tests(run)
    report = state.last_tests
    if has_tests and report is not None and not report.ok:
        state.finish_refusals += 1
        output = "Not finished: the tests still fail. Fix them, then call finish again.\n"
        output += report.text
        run.emit(ToolCallFinished(call.id, call.name, False, output, time.monotonic() - started))
        run.conversation.add_tool_result(call, output)
        if state.finish_refusals > run.settings.tests.max_finish_refusals:
            raise Stop(StopReason.TESTS_STILL_FAILING, summary)
        run.enter(Phase.CORRECT)
        return
    run.emit(ToolCallFinished(call.id, call.name, True, "Finished.", time.monotonic() - started))
    run.conversation.add_tool_result(call, "Finished.")
    raise Stop(StopReason.DONE, summary)
