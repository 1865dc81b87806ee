"""The plan -> edit -> test -> correct loop, as one coroutine.

One call of `drive` is one request from the person. Each step asks the model once and
runs the tool calls it made; after edits kiln runs the tests itself and feeds the digest
back; `finish` while the tests fail is answered with the digest (up to a limit). Steps
are plain `async def`s that emit events through `Run.emit` and return their results.
Every way out (a limit, the wall clock, Esc, a model or sandbox failure) becomes one
`Stop` in `_until_stopped`, and the run ends with one `Finished` event.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Coroutine
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from agent import tools
from agent.errors import ModelError
from agent.errors import SandboxError as KilnSandboxError
from agent.events import (
    AssistantMessage,
    Finished,
    Notice,
    Phase,
    PlanUpdated,
    StopReason,
    TaskShape,
    TaskShaped,
    ToolCallFinished,
    ToolCallStarted,
    TurnStarted,
    UsageUpdated,
)
from agent.llm.base import Completion, ToolCall
from agent.prompts.conversation import truncate
from agent.prompts.shape import shape_of
from agent.prompts.system import QUESTION_NOTE
from agent.run.checks import (
    after_changes,
    after_failed_edit,
    answered_in_text,
    judge_finish,
    record_tests,
)
from agent.run.core import Emit, LoopDeps, Run
from agent.run.evidence import weigh
from agent.run.state import RunState
from agent.run.stops import Stop, limit_stop, status_for
from agent.run.turn import request_turn
from agent.tools.delegate import NAME as DELEGATE
from agent.tools.gate import ApprovalStop
from sandbox.base import SandboxError

if TYPE_CHECKING:
    from agent.prompts.briefing import Briefing

__all__ = ["LoopDeps", "drive"]

T = TypeVar("T")


async def drive(
    deps: LoopDeps,
    task: str,
    state: RunState,
    emit: Emit,
    briefing: Briefing | None = None,
    *,
    shape: TaskShape | None = None,
    attempts: int = 1,
) -> Finished:
    """Work on `task` until a Stop; returns (and emits last) the Finished event. `briefing`:
    a small model's first message, made for the session's first run, for its first try at
    a fix (agent/repair/first_try.py). `shape`: the request's, when the words do not decide
    it (a read-only child agent's task is a question, whatever its words). `attempts`: a
    change tried that many times at once, each in a sandbox of its own, the best one's diff
    kept (agent/run/attempts.py)."""
    run = Run(deps, state, emit)
    asked = deps.conversation.instructions  # the person's words, not the first message made
    state.shape = shape or shape_of(asked[-1] if asked else task)
    state.diff_at_start = deps.last_diff
    sandbox = deps.tool_context.sandbox
    state.start_ref = sandbox.last_checkpoint if state.diff_at_start else sandbox.baseline
    emit(TaskShaped(state.shape))
    if state.shape is TaskShape.QUESTION:
        briefing = None  # nothing to fix: no first try at a fix or a stub
        task = f"{task}\n\n{QUESTION_NOTE}"
    run.conversation.add_user(task)
    run.enter(Phase.PLAN, announce_again=True)  # every request starts by looking
    if attempts > 1 and state.shape is not TaskShape.QUESTION:
        from agent.run.attempts import attempt

        work = attempt(run, attempts, task, briefing, drive)
    else:
        work = _steps(run, briefing)
    stop = await _until_stopped(run, work, clocked=True)
    status, evidence, summary = status_for(stop.reason), "", stop.message
    if stop.reason is StopReason.DONE:  # finished: what shows it, past the clock
        weighed = await _until_stopped(run, weigh(run, stop.message), clocked=False)
        if isinstance(weighed, Stop):
            stop, status, summary = weighed, status_for(weighed.reason), weighed.message
        else:
            status, evidence, summary = weighed.status, weighed.evidence, weighed.summary
    run.enter(Phase.DONE if stop.reason is StopReason.DONE else Phase.FAILED)
    finished = Finished(
        status=status,
        stop_reason=stop.reason,
        summary=summary,
        evidence=evidence,
        steps=state.steps,
        tool_calls=state.tool_calls,
        usage=deps.meter.total,
        cost_usd=deps.meter.cost_usd,
        duration_s=state.elapsed,
    )
    emit(finished)
    return finished


async def _steps(run: Run, briefing: Briefing | None) -> NoReturn:
    """Step until something stops the run (a Stop, or an exception `_until_stopped` turns
    into one)."""
    asked = run.conversation.instructions
    words = asked[-1] if asked else ""
    if briefing is not None:  # a small model's first try at a fix
        from agent.repair.first_try import first_try

        await first_try(run, briefing, words, run.state.shape)
    while True:
        await _step(run)


async def _until_stopped(run: Run, work: Coroutine[Any, Any, T], *, clocked: bool) -> T | Stop:
    """`work`'s result, or the Stop it ended with: the one place every way out becomes a
    Stop. `clocked`: under the run's wall clock."""
    deadline = run.state.deadline if clocked else None
    wall_clock = asyncio.timeout(None if deadline is None else deadline - time.monotonic())
    try:
        async with wall_clock:
            return await work
    except Stop as stop:
        return stop
    except TimeoutError:
        if not wall_clock.expired():
            raise  # a timeout of something inside is a bug here, not the wall clock
        return Stop(StopReason.WALL_CLOCK, "The wall-clock limit was reached.")
    except asyncio.CancelledError:
        # Only the session cancels this task (Esc, Ctrl+C): the run ends, the session goes on.
        task = asyncio.current_task()
        if task is not None:
            task.uncancel()
        return Stop(StopReason.CANCELLED, "Cancelled.")
    except ModelError as exc:
        return Stop(StopReason.MODEL_ERROR, exc.message)
    except (SandboxError, KilnSandboxError) as exc:
        return Stop(StopReason.SANDBOX_ERROR, str(exc))
    except ApprovalStop as exc:
        return Stop(
            StopReason.APPROVAL_NEEDED,
            f"`{exc.request.summary}` needs approval, and this run may not ask "
            "(--approval fail); the repository is untouched.",
        )


async def _step(run: Run) -> None:
    state, deps = run.state, run.deps
    reason = state.before_step() or deps.meter.over_budget(run.settings.limits)
    if reason:
        raise limit_stop(reason)
    state.steps += 1
    run.emit(TurnStarted(state.steps))
    if state.edited:  # while the model thinks: the diff the run's end (or a step) asks for
        run.sandbox.snapshot_soon()
    completion = await request_turn(run)
    deps.meter.add(completion.usage, completion.duration_s)
    run.emit(
        UsageUpdated(
            deps.meter.total,
            completion.usage,
            deps.meter.cost_usd,
            ttft_s=completion.ttft_s,
            duration_s=completion.duration_s,
        )
    )
    for said in deps.meter.budget_events(run.settings.limits):  # 80% of a budget, once
        run.emit(said)
    message = completion.message
    if message.content.strip() or message.reasoning.strip():
        run.emit(AssistantMessage(message.content, message.reasoning))
    run.conversation.add_assistant(message)
    answered: set[str] = set()
    try:
        await _act(run, completion, answered)
    finally:
        for call in message.tool_calls:  # every call needs a result, even when we stop
            if call.id not in answered:
                run.conversation.add_tool_result(call, "Not run: the run stopped first.")


async def _act(run: Run, completion: Completion, answered: set[str]) -> None:
    state, limits = run.state, run.settings.limits
    calls = completion.message.tool_calls
    problems = [p.correction for p in completion.format_problems]
    state.format_errors = state.format_errors + 1 if problems else 0
    if state.format_errors >= limits.format_error_limit:
        raise Stop(StopReason.FORMAT_ERRORS, "Too many malformed tool calls in a row.")
    if not calls:
        if not problems:
            answered_in_text(run, completion.message.content)
        state.idle_replies += 1
        if problems:
            run.conversation.add_feedback("\n".join(problems))
        elif state.idle_replies >= 2:
            raise Stop(StopReason.NO_ACTION, completion.message.content.strip()[:2000])
        else:
            run.conversation.add_feedback(run.deps.policy.nudge(state.last_tests))
        return
    state.idle_replies = 0
    finish: ToolCall | None = None
    delegated = [c for c in calls if c.name == DELEGATE and run.tool_context.agents is not None]
    with _servers_held(run):  # a language server starts once the step's checks are done
        async with _children_started(run, delegated) as children:  # every child at once
            for call in calls:
                if call.name == "finish" and finish is None:
                    finish = call  # answered after the other calls of this turn
                    continue
                await _call_tool(run, call, children.get(call.id))
                answered.add(call.id)
        await after_changes(run, auto_test=finish is None)
    if problems:
        run.conversation.add_feedback("\n".join(problems))
    if finish is not None:
        # A refused finish is naturally repeated: max_finish_refusals bounds that, not
        # the loop detection.
        reason = state.before_call(finish.name, finish.arguments, track_repeats=False)
        if reason:
            raise limit_stop(reason, "finish")
        answered.add(finish.id)  # judge_finish always answers it
        await judge_finish(run, finish)


def _servers_held(run: Run) -> contextlib.AbstractContextManager[None]:
    servers = run.tool_context.language_servers
    return servers.holding() if servers is not None else contextlib.nullcontext()


@contextlib.asynccontextmanager
async def _children_started(run: Run, calls: list[ToolCall]) -> AsyncIterator[dict[str, Any]]:
    """The child agents these `agent` calls start, all at once (agent/run/children.py,
    imported only by a session that offers the tool); {} when there are none."""
    if not calls:
        yield {}
        return
    from agent.run.children import started

    async with started(run, calls, drive) as children:
        yield children


async def _call_tool(run: Run, call: ToolCall, child: Any = None) -> None:
    """One tool call, or, for an `agent` call, its child's report (`child`, started)."""
    state, emit = run.state, run.emit
    reason = state.before_call(call.name, call.arguments)
    if reason:
        raise limit_stop(reason, call.name)
    emit(ToolCallStarted(call.id, call.name, call.arguments, call.recovered_from_text))
    if call.recovered_from_text:
        emit(Notice(f"Recovered the model's {call.name} call from the text it wrote."))
    if call.name in tools.EDIT_TOOLS:
        run.enter(Phase.EDIT)
    elif call.name == "run_tests":
        run.enter(Phase.TEST)
    if call.name not in tools.READ_ONLY:
        await run.deps.before_change()
    started = time.monotonic()
    if child is not None:
        from agent.run.children import answer

        result = await answer(run, child)
    else:
        result = _fresh_test_result(state, call) or await tools.call(
            run.tool_context, call.name, call.arguments
        )
    shown, cut = truncate(result.output)
    emit(
        ToolCallFinished(
            call.id,
            call.name,
            result.ok,
            shown,
            time.monotonic() - started,
            result.exit_code,
            cut or result.truncated,
        )
    )
    run.conversation.add_tool_result(call, result.output)
    state.pending_change = state.pending_change or result.edited
    if call.name in tools.EDIT_TOOLS and result.ok:
        state.last_edit, state.last_edit_step = call, state.steps
    if call.name in tools.EDIT_TOOLS and not result.ok:
        stop = state.edit_failed()
        if await after_failed_edit(run, call):
            return  # a candidate that applies (and did better) took its place
        if stop:
            n = state.edits_without_progress
            raise limit_stop(
                StopReason.NO_PROGRESS, f"{n} edits in a row did not apply or change anything"
            )
    if result.plan is not None:
        emit(PlanUpdated(result.plan))
    if result.tests is not None:
        record_tests(run, result.tests)


def _fresh_test_result(state: RunState, call: ToolCall) -> tools.ToolResult | None:
    """kiln's own test run is still current (nothing changed since): no need to run again."""
    report = state.last_tests
    if call.name != "run_tests" or call.arguments.get("args") or report is None:
        return None
    if state.edits_since_tests or state.pending_change:
        return None
    note = "\n(no file changed since the last run, so these results are current)"
    return tools.ToolResult(report.ok, report.text + note, exit_code=report.exit_code, tests=report)
