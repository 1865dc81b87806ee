"""After the model acts: notice workspace changes, checkpoint, run the tests, judge `finish`.

`finish` is judged by the request's shape (agent/prompts/shape.py): a question is done with
its answer, no tests needed; a change is done only with something changed and the tests
passing, never on tests that passed before the run and still do over an untouched tree.
The repair engine's candidates are imported once tests fail after an edit.
"""

from __future__ import annotations

import asyncio
import time

from agent.approval import Mode
from agent.events import (
    Checkpointed,
    FilesChanged,
    Phase,
    StopReason,
    TaskShape,
    TestsRan,
    ToolCallFinished,
    ToolCallStarted,
)
from agent.llm.base import ToolCall
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
    if not report.ok and run.deps.last_diff == state.diff_at_start:
        state.failed_before = report  # on the code as the run found it: evidence.py
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
    if not deps.record_diff(diff):
        return
    state.edited = state.edits_since_tests = True
    run.emit(FilesChanged(tuple(paths)))
    before_edit = run.sandbox.last_checkpoint or run.sandbox.baseline
    label = f"step {state.steps}"
    # The checkpoint commits the workspace as of now (its snapshot was just taken): the
    # tests run beside the commit, not after it.
    checkpointing = asyncio.ensure_future(run.sandbox.checkpoint(label))
    asked_a_change = state.shape is not TaskShape.QUESTION  # a question's answer needs no tests
    tests = auto_test and asked_a_change and run.settings.tests.run_after_edits
    if not (tests and deps.tool_context.test_command):
        run.emit(Checkpointed(await checkpointing, label))
    else:
        before = state.last_tests
        testing = asyncio.ensure_future(run_tests(run))
        try:
            run.emit(Checkpointed(await checkpointing, label))
        except BaseException:
            testing.cancel()
            raise
        report = await testing
        run.conversation.add_feedback(await deps.policy.after_edit(report, paths, run.sandbox))
        this_step = state.last_edit_step == state.steps  # the change was that edit
        if not report.ok and before_edit and this_step:
            from agent.repair.candidates import candidate_round, candidates_allowed

            if candidates_allowed(run):
                assert state.last_edit is not None
                report = await candidate_round(run, state.last_edit, before_edit, report) or report
        if state.after_edit_tests(before, report):
            n = state.edits_without_progress
            raise limit_stop(
                StopReason.NO_PROGRESS, f"{n} edits in a row left the tests as they were"
            )


FAILED_EDITS_BEFORE_CANDIDATES = 2


async def after_failed_edit(run: Run, call: ToolCall) -> bool:
    """An edit that did not apply, again: sample other edits instead of a third try of
    the same. True when one was kept."""
    state = run.state
    if state.edits_without_progress < FAILED_EDITS_BEFORE_CANDIDATES:
        return False
    from agent.repair.candidates import candidate_round, candidates_allowed

    if not candidates_allowed(run) or not run.deps.tool_context.test_command:
        return False
    tests = state.last_tests or await run_tests(run)  # what candidates must beat
    if tests.ok:
        return False
    here = await run.sandbox.checkpoint(f"step {state.steps} (before candidates)")
    return await candidate_round(run, call, here, tests) is not None


NOTHING_CHANGED = (
    "Not finished: nothing changed. The request asks for a change, and no file differs "
    "from when it was made. Make the change, or, if it cannot be done, call finish "
    "saying why."
)
NO_ANSWER = "Not finished: the request is a question. Call finish with the answer as its summary."


async def judge_finish(run: Run, call: ToolCall) -> None:
    """Accept `finish` (raising Stop(DONE)), unless the tests fail or, on a request for a
    change, nothing changed: then say why, up to a limit."""
    state, deps = run.state, run.deps
    summary = finish_summary(call.arguments)
    run.emit(ToolCallStarted(call.id, call.name, call.arguments, call.recovered_from_text))
    started = time.monotonic()
    if state.shape is TaskShape.QUESTION:
        if not str(call.arguments.get("summary") or "").strip():
            _refuse(run, call, NO_ANSWER, started, StopReason.NO_ACTION, summary)
            return
        if not await _stop_hooks_object(run, call, started, summary):
            _accept(run, call, started, summary)  # the answer is the result
        return
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
        output = "Not finished: the tests still fail. Fix them, then call finish again.\n"
        _refuse(run, call, output + report.text, started, StopReason.TESTS_STILL_FAILING, summary)
        return
    can_edit = deps.tool_context.gate.mode is not Mode.PLAN
    if can_edit and await run.sandbox.diff() == state.diff_at_start:
        said = (
            f"Nothing changed: finish was called {state.finish_refusals + 1} times without a "
            f"change, and the request asks for one. The model said: {summary}"
        )
        _refuse(run, call, NOTHING_CHANGED, started, StopReason.NOTHING_CHANGED, said)
        return
    if not await _stop_hooks_object(run, call, started, summary):
        _accept(run, call, started, summary)


def _refuse(
    run: Run, call: ToolCall, output: str, started: float, reason: StopReason, summary: str
) -> None:
    """Tell the model why it is not finished; past the limit the run ends for `reason`."""
    state = run.state
    state.finish_refusals += 1
    run.emit(ToolCallFinished(call.id, call.name, False, output, time.monotonic() - started))
    run.conversation.add_tool_result(call, output)
    if state.finish_refusals > run.settings.tests.max_finish_refusals:
        raise Stop(reason, summary)
    run.enter(Phase.CORRECT)


STOP_HOOK = "Not finished: a Stop hook asks you to go on: {reason}"


async def _stop_hooks_object(run: Run, call: ToolCall, started: float, summary: str) -> bool:
    """The person's Stop hooks, once the run would finish: one that blocks makes the model
    go on, once per run (the second time it is told, as Claude Code tells it, and finishes)."""
    hooks, state = run.deps.tool_context.hooks, run.state
    if hooks is None:
        return False
    reason = await hooks.finishing(state.stop_hooks > 0, run.emit)
    state.stop_hooks += 1
    if reason is None or state.stop_hooks > 1:
        return False
    _refuse(run, call, STOP_HOOK.format(reason=reason), started, StopReason.DONE, summary)
    return True


def _accept(run: Run, call: ToolCall, started: float, summary: str) -> None:
    run.emit(ToolCallFinished(call.id, call.name, True, "Finished.", time.monotonic() - started))
    run.conversation.add_tool_result(call, "Finished.")
    raise Stop(StopReason.DONE, summary)


def answered_in_text(run: Run, text: str) -> None:
    """A reply with no tool call is the answer to a question (Stop(DONE) with it): chat
    models answer in text, and asking them to wrap it in finish would only cost a turn."""
    if run.state.shape is TaskShape.QUESTION and text.strip():
        raise Stop(StopReason.DONE, text.strip())
