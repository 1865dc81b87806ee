"""Child agents: the `agent` tool's calls, answered by the loop (agent/tools/delegate.py).

A child is a run of its own: its own conversation (the session's system prompt, then its
definition's instructions), its own sandbox started over the parent's workspace (the
parent's diff applied, then made the child's baseline, so the child's diff is its own
work), its own counters, and the parent's clock, mode, permission rules and budget: its
requests are counted in the parent's meter as they happen (`Meter.child`), so a child
cannot spend past the parent's budget. A read-only child (no edit tools, no `run`) answers
as a question does; a writing child hands back its diff under its id, which the parent
model takes (`take`: applied to the parent's workspace, then checkpointed like any edit,
so /undo takes it back) or leaves. Children never start children.

Every `agent` call of one reply starts at once, up to `[agents] max_parallel`; the parent
reads each child's report (how it ended, its summary, its files and tests), never its
transcript. Cancelling the run cancels the children, and each child's sandbox is closed
however it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from agent.custom.agents import AgentDefinition
from agent.errors import KilnError
from agent.events import (
    ActionDenied,
    ApprovalRequested,
    ApprovalResolved,
    Event,
    Finished,
    RunStatus,
    SubagentFinished,
    SubagentStarted,
    TaskShape,
    Usage,
    UsageUpdated,
)
from agent.llm.base import ModelClient, ToolCall
from agent.present import changed_paths
from agent.prompts.conversation import Conversation
from agent.run.core import LoopDeps, Run
from agent.run.state import RunState
from agent.tools import ToolResult
from agent.tools.delegate import NAME
from agent.tools.shell import apply_in
from sandbox.base import Sandbox, SandboxError

REPORT_CHARS = 6000  # of a child's summary, in the parent's conversation
# Events of a child the person must still see through the parent's stream: its questions
# and refusals. Its usage goes on as the parent's meter (see `_forward`).
_SHOWN = (ApprovalRequested, ApprovalResolved, ActionDenied)
_ids = itertools.count(1)


def new_agent_id() -> str:
    """A child's id, unique in this process: what the parent model and the person see."""
    return f"a{next(_ids)}"


class ChildFailed(Exception):
    """A child that could not start; the parent model is told why."""


@dataclasses.dataclass
class Child:
    call: ToolCall
    definition: AgentDefinition | None
    task: str
    agent_id: str
    drive: Drive
    job: asyncio.Task[ToolResult] | None = None
    # A parallel attempt (run/attempts.py): its own client (its own sampling), and its task
    # is the person's request itself, so it starts from the session's first message (and a
    # small model's briefing) rather than from a parent model's words.
    client: ModelClient | None = None
    first: str = ""
    briefing: Any = None


Drive = Callable[..., Awaitable[Finished]]  # run.loop.drive, handed in: the loop calls this


@contextlib.asynccontextmanager
async def started(run: Run, calls: list[ToolCall], drive: Drive) -> AsyncIterator[dict[str, Child]]:
    """Start every child these calls ask for, up to `max_parallel` at once, each run by
    `drive`; yields them by call id. Leaving cancels any still running (their sandboxes
    close as they end)."""
    agents = run.tool_context.agents
    limit = asyncio.Semaphore(max(1, run.settings.agents.max_parallel))
    children: dict[str, Child] = {}
    for call in calls:
        name = str(call.arguments.get("agent") or "general")
        definition = agents.get(name) if agents is not None else None
        task = str(call.arguments.get("task") or "").strip()
        child = Child(call, definition, task, new_agent_id(), drive)
        if definition is not None and task and not call.arguments.get("take"):
            child.job = asyncio.ensure_future(run_limited(limit, run, child))
        children[call.id] = child
    try:
        yield children
    finally:
        running = [c.job for c in children.values() if c.job is not None and not c.job.done()]
        for job in running:
            job.cancel()
        if running:
            await asyncio.gather(*running, return_exceptions=True)


async def answer(run: Run, child: Child) -> ToolResult:
    """The tool result of one `agent` call: its child's report, or the changes taken."""
    taken = str(child.call.arguments.get("take") or "").strip()
    if taken:
        return await take(run, taken)
    if child.job is not None:
        # Waited on, not awaited: a cancel of the run must reach the run, and a child's own
        # loop turns a cancel into how it ended (the run's `started` cancels it on the way).
        await asyncio.wait({child.job})
        return child.job.result()
    if not child.task:
        return ToolResult(False, f"{NAME} needs a `task` (or `take` with a helper's id).")
    agents = run.tool_context.agents
    names = ", ".join(d.name for d in agents.definitions) if agents else ""
    name = child.call.arguments.get("agent")
    return ToolResult(False, f"There is no agent named {name!r}; the agents: {names}.")


async def run_limited(limit: asyncio.Semaphore, run: Run, child: Child) -> ToolResult:
    async with limit:
        return await run_child(run, child)


async def run_child(run: Run, child: Child) -> ToolResult:
    """One child, start to end; its report as the `agent` call's result."""
    assert child.definition is not None
    definition, deps = child.definition, run.deps
    hooks = deps.tool_context.hooks
    task = child.task
    if hooks is not None:
        blocked, said = await hooks.subagent_starting(
            child.agent_id, definition.name, task, run.emit
        )
        if blocked:
            return ToolResult(False, f"A SubagentStart hook blocked {child.agent_id}: {said}")
        task = f"{task}\n\nContext added by the person's hooks:\n{said}" if said else task
    run.emit(SubagentStarted(child.agent_id, definition.name, child.task, definition.read_only))
    began = time.monotonic()
    made: list[Sandbox] = []
    finished: Finished | None = None
    files: tuple[str, ...] = ()
    meter = None
    try:
        try:
            sandbox = await _sandbox_over_parent(run, child.agent_id, made)
        except (ChildFailed, SandboxError, KilnError) as exc:
            said = exc.message if isinstance(exc, KilnError) else str(exc)
            return ToolResult(False, f"{child.agent_id} could not start: {said}")
        client, pricing = child.client or deps.client, deps.meter.pricing
        if definition.wants_fast and deps.fast is not None:
            client, pricing = deps.fast.client, deps.fast.pricing
        meter = deps.meter.child(pricing, f"agent {definition.name}")
        system = f"{deps.conversation.system}\n\n## Your role\n\n{definition.prompt}"
        child_deps = LoopDeps(
            client=client,
            tool_context=dataclasses.replace(
                deps.tool_context,
                sandbox=sandbox,
                only=definition.tools,
                agents=None,  # children start no children
                external=None,  # nor an MCP server's tools, whose effects leave the sandbox
            ),
            conversation=Conversation(system, instructions=[task]),
            meter=meter,
            policy=deps.policy,
            before_change=_nothing,
            window=deps.window,
            fast=deps.fast,
            on_request=deps.on_request,
        )
        state = RunState(_limits_left(run))
        shape = TaskShape.QUESTION if definition.read_only else None
        words = child.first or _with_the_persons_words(task, deps)
        finished = await child.drive(
            child_deps, words, state, _forward(run), child.briefing, shape=shape
        )
        diff = "" if definition.read_only else await sandbox.diff()
        files = tuple(changed_paths(diff))
        if diff.strip():
            run.state.child_diffs[child.agent_id] = diff
        report = _report(child, finished, files, state)
        if hooks is not None:
            objection = await hooks.subagent_stopped(
                child.agent_id, definition.name, finished.summary, run.emit
            )
            if objection:
                report += f"\nA SubagentStop hook objected: {objection}"
        return ToolResult(True, report)
    finally:
        for box in made:
            with contextlib.suppress(Exception):
                await box.close()
        current = asyncio.current_task()
        cancelled = current is not None and current.cancelling() > 0
        ended = RunStatus.CANCELLED if cancelled else RunStatus.ERROR  # it never finished
        status = finished.status if finished is not None else ended
        run.state.child_ended[child.agent_id] = (status, finished.steps if finished else 0)
        run.emit(
            SubagentFinished(
                child.agent_id, definition.name, status,
                finished.summary if finished is not None else "",
                files, finished.steps if finished is not None else 0,
                meter.total if meter is not None else Usage(),
                meter.cost_usd if meter is not None else 0.0,
                time.monotonic() - began,
            )
        )  # fmt: skip


async def _sandbox_over_parent(run: Run, agent_id: str, made: list[Sandbox]) -> Sandbox:
    """A sandbox of the repository with the parent's changes so far applied, those changes
    its baseline: what the child changes is its own diff."""
    from agent.boundary import start_sandbox

    parent = run.sandbox
    sandbox = await start_sandbox(parent.repo, run.settings, f"agent-{agent_id}", made, _quiet)
    diff = await parent.diff()
    if diff.strip():
        refused = await apply_in(sandbox, diff, timeout=60)
        if refused is not None:
            raise ChildFailed(f"your changes so far did not apply in its sandbox ({refused})")
        await sandbox.rebaseline()
    return sandbox


async def take(run: Run, agent_id: str) -> ToolResult:
    """Apply a finished child's diff to the parent's workspace (edited: the loop records,
    checkpoints and tests it as it does any edit)."""
    diff = run.state.child_diffs.get(agent_id)
    if diff is None:
        known = ", ".join(sorted(run.state.child_diffs)) or "none"
        return ToolResult(False, f"No helper's changes wait under {agent_id!r} (waiting: {known}).")
    await run.deps.before_change()
    refused = await apply_in(run.sandbox, diff, timeout=60)
    if refused is not None:
        return ToolResult(
            False,
            f"{agent_id}'s changes do not apply to your workspace as it is now: {refused}",
        )
    del run.state.child_diffs[agent_id]
    files = ", ".join(changed_paths(diff))
    return ToolResult(True, f"Applied {agent_id}'s changes: {files}.", edited=True)


def _with_the_persons_words(task: str, deps: LoopDeps) -> str:
    """A child's first message: its task, then the person's own words, which go to the
    model on every path (the parent model's task for a child may leave them out)."""
    asked = deps.conversation.instructions
    if not asked:
        return task
    return (
        f"{task}\n\nFor context, the person's request to the agent that started you:\n{asked[-1]}"
    )


def _limits_left(run: Run) -> Any:
    """The parent's limits, its clock as what is left of it."""
    limits = run.settings.limits
    deadline = run.state.deadline
    if deadline is None:
        return limits
    return dataclasses.replace(limits, timeout_s=max(1.0, deadline - time.monotonic()))


def _forward(run: Run) -> Any:
    """A child's events as the parent's stream shows them: its questions and refusals as
    they are, each request's usage as the parent's meter now stands; the rest stays the
    child's."""

    def emit(event: Event) -> None:
        if isinstance(event, _SHOWN):
            run.emit(event)
        elif isinstance(event, UsageUpdated) and not event.estimated:
            meter = run.deps.meter
            run.emit(
                UsageUpdated(
                    meter.total,
                    event.last,
                    meter.cost_usd,
                    ttft_s=event.ttft_s,
                    duration_s=event.duration_s,
                )
            )

    return emit


def _report(child: Child, finished: Finished, files: tuple[str, ...], state: RunState) -> str:
    """What the parent reads: how the child ended, its summary, its files and tests."""
    assert child.definition is not None
    summary = finished.summary.strip()
    if len(summary) > REPORT_CHARS:
        summary = summary[:REPORT_CHARS] + " […]"
    lines = [f"{child.agent_id} ({child.definition.name}) ended {finished.status}.", summary]
    if finished.evidence and finished.status is not RunStatus.ANSWERED:
        lines.append(finished.evidence)
    tests = state.last_tests
    if tests is not None:
        lines.append(f"Its last test run: {tests.passed} passed, {tests.failed} failed.")
    if files:
        lines.append(
            f"It changed {', '.join(files)}. These changes are not in your workspace: call "
            f"{NAME} with take={child.agent_id!r} to apply them, or leave them."
        )
    return "\n".join(line for line in lines if line)


async def _nothing() -> None:
    return None


def _quiet(note: str) -> None:
    """A child's sandbox notes (the bubblewrap fallback) were said for the parent's."""
