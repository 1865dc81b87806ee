"""Test-verified candidates: when a small model's fix fails, let the tests pick a better one.

The same request that produced the failing edit is sent again K times at a higher
temperature: the conversation up to that edit, the person's task in it
(agent/run/sampling.py puts it in should a compaction ever have left it out). Each
reply's edit is applied on the workspace as it was before the failing edit (restored
from its checkpoint), and the tests run on it. The best candidate is kept: all tests pass, else the most passing, then
the smallest change. A candidate that edits a test file is never chosen. If none beats
the model's own edit, the workspace goes back to that edit. The test suite, not the
model, is the judge.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from agent import tools
from agent.approval import Mode
from agent.events import CandidateKind, CandidatesTried, Checkpointed, TestsRan
from agent.llm.base import Completion, Message, ToolCall
from agent.prompts.briefing import is_test_file
from agent.run.core import Run
from agent.run.sampling import ask_once
from agent.tools.shell import run_test_command
from agent.tools.testdigest import TestDigest
from sandbox.base import Sandbox
from sandbox.frozen import frozen

SAMPLED = CandidateKind.SAMPLED_EDIT
MAX_CANDIDATE_ROUNDS = 2  # per request: sampling is the slow part of a small model's run


@frozen
class Candidate:
    call: ToolCall
    report: TestDigest
    diff_size: int

    def score(self) -> tuple[int, int, int]:
        return (int(self.report.ok), self.report.passed - self.report.failed, -self.diff_size)


def request_before(messages: list[Message], edit_id: str) -> list[Message] | None:
    """The messages of the request whose reply made the edit `edit_id`."""
    for index, message in enumerate(messages):
        if any(call.id == edit_id for call in message.tool_calls):
            return messages[:index]
    return None


@contextlib.asynccontextmanager
async def restored_if_cut(sandbox: Sandbox, ref: str) -> AsyncIterator[None]:
    """Left by an exception (the wall clock, Esc, a sandbox error), the workspace goes back
    to `ref`: a candidate half tried is never left in place to be shown or applied."""
    try:
        yield
    except BaseException:
        with contextlib.suppress(Exception):
            await sandbox.restore(ref)
        raise


async def candidate_round(
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
    await run.kiln_changed_files()
    label = f"step {state.steps} (best candidate)"
    run.emit(Checkpointed(await run.sandbox.checkpoint(label), label))
    return better


def candidate_count(run: Run) -> int:
    profile = run.deps.client.profile
    # A small model's samples are cheap (the prompt is cached, the reply a line or two)
    # and each is one more chance the tests can recognise.
    return profile.candidates if profile.candidates >= 0 else run.deps.policy.default_candidates


def candidates_allowed(run: Run) -> bool:
    """Edits that need no asking (candidates are edits too), an edit to redo, rounds left."""
    mode = run.deps.tool_context.gate.mode
    return (
        candidate_count(run) > 0
        and mode in (Mode.AUTO_EDIT, Mode.FULL_AUTO)
        and run.state.candidate_rounds < MAX_CANDIDATE_ROUNDS
    )


async def try_candidates(
    run: Run, failed: ToolCall, base_ref: str, current: TestDigest, count: int, temperature: float
) -> TestDigest | None:
    """Sample `count` fixes for the request that made `failed`; keep the best if it beats
    `current` (the tests after the model's own edit). Returns the kept one's tests."""
    sandbox, context = run.sandbox, run.candidates_context
    request = request_before(run.conversation.messages(), failed.id)
    if request is None:
        return None
    own_ref = await sandbox.checkpoint("before candidates")
    async with restored_if_cut(sandbox, own_ref):
        tried = await _tried(run, request, failed, base_ref, count, temperature)
    best = max(tried, key=Candidate.score, default=None)
    own = Candidate(failed, current, 0)
    if best is None or best.score()[:2] <= own.score()[:2]:
        await sandbox.restore(own_ref)
        run.emit(CandidatesTried(len(tried), sum(c.report.ok for c in tried), "", SAMPLED))
        return None
    await sandbox.restore(base_ref)
    await tools.call(context, best.call.name, best.call.arguments)
    chosen = _describe(best.call)
    run.emit(CandidatesTried(len(tried), sum(c.report.ok for c in tried), chosen, SAMPLED))
    report = best.report
    run.emit(
        TestsRan(
            report.command, report.passed, report.failed, report.errors, report.exit_code,
            report.failing, report.text, report.duration_s,
        )
    )  # fmt: skip
    passing = sum(c.report.ok for c in tried)
    run.conversation.add_feedback(
        f"[kiln tried {len(tried)} other fixes from before your edit: {passing} pass the "
        f"tests. It applied the best instead of yours: {chosen}]\n{report.text}"
    )
    return report


async def _tried(
    run: Run,
    request: list[Message],
    failed: ToolCall,
    base_ref: str,
    count: int,
    temperature: float,
) -> list[Candidate]:
    """Each sampled edit applied to the workspace at `base_ref` and tested, until one
    passes; the last is left in place."""
    sandbox, context = run.sandbox, run.candidates_context
    tried: list[Candidate] = []
    for _ in range(count):
        completion = await ask_once(run, request, tools.specs(context), temperature=temperature)
        call = _edit_in(completion)
        if call is None or _touches_tests(call) or _same(call, failed, tried):
            continue
        await sandbox.restore(base_ref)
        applied = await tools.call(context, call.name, call.arguments)
        if not applied.ok:
            continue
        report = await run_test_command(context)
        tried.append(Candidate(call, report, len(await sandbox.diff())))
        if report.ok:
            break  # all tests pass: nothing can beat it
    return tried


def _edit_in(completion: Completion | None) -> ToolCall | None:
    if completion is None:
        return None
    return next((c for c in completion.message.tool_calls if c.name in tools.EDIT_TOOLS), None)


def _touches_tests(call: ToolCall) -> bool:
    return is_test_file(str(call.arguments.get("path", "")))


def _same(call: ToolCall, failed: ToolCall, tried: list[Candidate]) -> bool:
    """Already known: the model's own failing edit, or a candidate tried before."""
    return call.arguments == failed.arguments or any(
        call.arguments == c.call.arguments for c in tried
    )


def _describe(call: ToolCall) -> str:
    path = call.arguments.get("path", "?")
    new = str(call.arguments.get("new_text") or call.arguments.get("content") or "")
    first = next((line.strip() for line in new.splitlines() if line.strip()), "")
    return f"{call.name} {path}: {first[:80]}"
