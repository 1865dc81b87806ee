"""A small model's first try: rewrite the suspect functions, and let the tests judge.

Before the first request of a run whose tests fail, kiln asks the small model to rewrite
each function the failing tests lead to (agent/prompts/rewrite.py), one at a time: first
each at temperature 0, then again sampled, up to the profile's candidate count. Each
rewrite is put in place of its function on the workspace as it was, and the tests run. The
first that makes them all pass is kept and the run is done; the tests, not the model,
said so. If none does, the workspace goes back as it was and the usual loop starts, with
its own candidates after a failing fix.
"""

from __future__ import annotations

import asyncio

from agent import tools
from agent.events import (
    AssistantMessage,
    CandidatesTried,
    Checkpointed,
    FilesChanged,
    Phase,
    StopReason,
)
from agent.llm.base import Message
from agent.prompts.briefing import Briefing
from agent.prompts.imports import stdlib_imports_added
from agent.prompts.rewrite import Suspect, rewrite_request, rewritten
from agent.run.checks import candidate_count, candidates_allowed, record_tests
from agent.run.core import Run
from agent.run.sampling import ask_once
from agent.run.stops import Stop
from agent.tools.shell import run_test_command
from agent.tools.testdigest import TestDigest
from sandbox.base import SandboxError

WALL_CLOCK_SHARE = 0.5  # at most this much of the run's time: the loop gets the rest


async def rewrite_first(run: Run) -> None:
    """Try rewrites once, at the start of the first run; raises Stop(DONE) when one passes."""
    policy = run.deps.policy
    plan, policy.briefing = policy.briefing, None
    if plan is None or not plan.suspects or not run.tool_context.test_command:
        return
    if not candidates_allowed(run):
        return
    await run.deps.before_change()
    run.enter(Phase.EDIT)
    base = await run.sandbox.checkpoint("before rewrites")
    tried, passing = await _sample(run, plan, base)
    if passing is None:
        run.emit(CandidatesTried(tried, 0, "", rewrites=True))
        await run.sandbox.restore(base)
        return
    await _keep(run, *passing, tried)  # sampling stops at the first that passes: it is in place


async def _sample(
    run: Run, plan: Briefing, base: str
) -> tuple[int, tuple[Suspect, TestDigest] | None]:
    """Rewrites until one passes, the count is reached or the time share is spent: how
    many were tried, and the one that passes with its tests."""
    profile, limits = run.deps.client.profile, run.settings.limits
    budget = limits.timeout_s * WALL_CLOCK_SHARE if limits.timeout_s else None
    suspects = plan.suspects
    tried = 0
    seen: set[tuple[str, str]] = set()
    for attempt in range(candidate_count(run)):
        if budget is not None and run.state.elapsed > budget:
            break
        greedy = attempt < len(suspects)  # the likeliest reply of each first
        suspect = suspects[attempt if greedy else _likelier(attempt, len(suspects))]
        completion = await ask_once(
            run,
            rewrite_request(plan.context, plan.failure, suspect),
            [],
            max_tokens=_reply_tokens(suspect),
            temperature=0.0 if greedy else profile.candidate_temperature,
        )
        new = rewritten(completion.message.content, suspect) if completion else None
        if new is None or (suspect.path, new) in seen:
            continue
        seen.add((suspect.path, new))
        await run.sandbox.restore(base)
        edit = {"path": suspect.path, "old_text": suspect.text, "new_text": new}
        applied = await tools.call(run.tool_context, "edit_file", edit)
        if not applied.ok:  # a syntax error, say: the edit tool refused it
            continue
        await _add_imports(run, suspect.path)
        report = await run_test_command(run.tool_context)
        tried += 1
        if report.ok:
            return tried, (suspect, report)
    return tried, None


async def _keep(run: Run, suspect: Suspect, report: TestDigest, tried: int) -> None:
    state, deps = run.state, run.deps
    run.emit(CandidatesTried(tried, 1, f"rewrote {suspect.name} in {suspect.path}", rewrites=True))
    record_tests(run, report)
    state.edited = True
    deps.last_diff = await run.sandbox.diff()
    run.emit(FilesChanged(tuple(await run.sandbox.changed_files())))
    label = "rewrite that passes"
    run.emit(Checkpointed(await run.sandbox.checkpoint(label), label))
    summary = f"Rewrote `{suspect.name}` in {suspect.path}; the tests pass."
    run.emit(AssistantMessage(summary))
    run.conversation.add_assistant(Message("assistant", summary))
    raise Stop(StopReason.DONE, summary)


async def _add_imports(run: Run, path: str) -> None:
    """What the rewrite uses from the standard library and the module does not import yet."""
    if not path.endswith(".py"):
        return
    try:
        source = (await run.sandbox.read_file(path)).decode("utf-8")
    except (SandboxError, UnicodeDecodeError):
        return
    fix = await asyncio.to_thread(stdlib_imports_added, source)
    if fix is not None:
        old, new = fix
        await tools.call(
            run.tool_context, "edit_file", {"path": path, "old_text": old, "new_text": new}
        )


def _likelier(attempt: int, count: int) -> int:
    """Which suspect a sampled attempt rewrites: the first every other time, as it is the
    likeliest to hold the bug, the others in turn."""
    if count == 1 or attempt % 2 == 0:
        return 0
    return 1 + (attempt // 2) % (count - 1)


def _reply_tokens(suspect: Suspect) -> int:
    """Room for the function half again as long and a line of talk, not for a whole file."""
    return len(suspect.text) // 2 + 200
