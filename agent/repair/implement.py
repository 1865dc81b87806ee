"""Implementing a stub from a description: whole modules sampled, the tests judging.

When a run starts with failing tests and the repository holds a stub (a small Python
module whose functions are still `pass`, `...` or `raise NotImplementedError`), there is
no bug to localise and nothing worth mutating. kiln asks the model for the whole module
(agent/prompts/implement.py): first its likeliest reply, then, in turns, a fresh sample
and the best module so far handed back with the tests it still fails. Each candidate is
written over the stub and the tests run; the first that passes them all is kept and the
run is done. A candidate that passes a test the best one fails lends it its functions,
one at a time (crossover.py). When the time share runs out, the candidate that passed
the most tests stays in place (if it beat the stub) and is briefed as code to repair: the
rewrites and kiln's one-token variants of its functions come next
(agent/repair/rewrites.py), then the loop.
While no candidate beats the stub, sampling goes on for the first try's whole share.
"""

from __future__ import annotations

from dataclasses import dataclass

from agent import tools
from agent.events import (
    AssistantMessage,
    CandidateKind,
    CandidatesTried,
    Checkpointed,
    Notice,
    Phase,
    StopReason,
)
from agent.llm.base import Message
from agent.prompts.briefing import Briefing, brief
from agent.prompts.implement import implement_request, improve_request, module_from_reply
from agent.repair.candidates import candidates_allowed, restored_if_cut
from agent.repair.crossover import cross, definitions
from agent.repair.stubs import Stub, find_stub
from agent.run.checks import record_tests
from agent.run.core import Run
from agent.run.sampling import ask_once
from agent.run.stops import Stop
from agent.tools.shell import run_test_command
from agent.tools.testdigest import TestDigest

# Of the run's wall clock, what implementing may take: the closest module's repair by
# rewrites and kiln's variants gets the rest of the first try's share, the loop the end.
WALL_CLOCK_SHARE = 0.5
# While no module has passed more tests than the stub, there is nothing for the rewrites to
# repair and a small model's own loop rarely gets further: samples go on for the whole of
# the first try's share.
NOTHING_BETTER_SHARE = 0.9
REPLY_TOKENS_PER_STUB_BYTE = 1.0  # a module grows well past its stub: room for that
MIN_REPLY_TOKENS, MAX_REPLY_TOKENS = 1024, 3072
MIN_TESTS_S = 30.0
# A small model handed its module back with the failures often answers with the same
# module: each such echo shows it other failures next time, and after this many the turns
# go to fresh samples until a better module comes.
MAX_ECHOES = 3
# Definitions of one candidate crossed into the best (crossover.py): each costs a test run.
MAX_CROSSES = 8


@dataclass
class _Best:
    module: str = ""
    report: TestDigest | None = None

    def beaten_by(self, report: TestDigest) -> bool:
        return self.report is None or report.passed > self.report.passed


async def implement_first(run: Run, briefing: Briefing | None, task: str) -> Briefing | None:
    """Implement the repository's stub, if the run starts on one. Raises Stop(DONE) when a
    module passes the tests. Returns the briefing the rewrites of a small model's first
    try work from: `briefing` as it came when there is no stub; the closest module's, made
    from the sandbox, when one is in place; None when they are to be left out (a stub has
    nothing to mutate)."""
    plan = briefing
    if plan is None or plan.baseline is None or plan.baseline.ok:
        return briefing
    if not run.tool_context.test_command or not candidates_allowed(run):
        return briefing
    stub = await find_stub(run, plan.documents)
    if stub is None:
        return briefing
    names = ", ".join(stub.names[:6]) + (" ..." if len(stub.names) > 6 else "")
    run.emit(Notice(f"{stub.path} is a stub ({names}): kiln asks for the whole module."))
    await run.deps.before_change()
    run.enter(Phase.EDIT)
    base = await run.sandbox.checkpoint("before implementing")
    async with restored_if_cut(run.sandbox, base):
        tried, best = await _sample(run, task, stub, plan.baseline)
    if best.report is not None and best.report.ok:
        await _keep(run, stub, best, tried)
    run.emit(CandidatesTried(tried, 0, "", CandidateKind.MODULE))
    if best.report is None or best.report.passed <= plan.baseline.passed:
        await run.sandbox.restore(base)
        return None  # the rewrites would only mutate the stub
    await _write(run, stub.path, best.module)  # the closest one: what is left is a repair
    record_tests(run, best.report)
    await run.kiln_changed_files()
    # Briefed from the sandbox (no index: the repository still holds the stub), so the
    # rewrites and kiln's variants take the module's functions the failing tests run.
    return await brief(task, best.report, run.sandbox)


async def _sample(run: Run, task: str, stub: Stub, baseline: TestDigest) -> tuple[int, _Best]:
    """Candidates until one passes or the time share is spent (a longer one while none
    beats the stub): the likeliest module, then a fresh sample and an improvement of the
    best so far in turns."""
    limits, profile = run.settings.limits, run.deps.client.profile
    clock = limits.timeout_s
    rounds = 2 * max(1, profile.candidates if profile.candidates >= 0 else 8)
    timeout_s = max(MIN_TESTS_S, 5 * baseline.duration_s)
    best, tried, seen = _Best(), 0, set()
    echoes = 0  # improvements of the best so far that answered with it unchanged
    for attempt in range(rounds):
        better = best.report is not None and best.report.passed > baseline.passed
        share = WALL_CLOCK_SHARE if better else NOTHING_BETTER_SHARE
        if clock and run.state.elapsed > clock * share:
            break
        improving = attempt % 2 == 0 and attempt > 0 and best.report is not None
        if improving and echoes < MAX_ECHOES:
            assert best.report is not None
            messages = improve_request(task, stub.documents, stub.path, stub.text, stub.tests,
                                       best.module, best.report, turn=echoes)  # fmt: skip
        else:
            improving = False
            messages = implement_request(task, stub.documents, stub.path, stub.text, stub.tests)
        temperature = 0.0 if attempt == 0 else profile.candidate_temperature
        completion = await ask_once(
            run, messages, [], max_tokens=_reply_tokens(stub), temperature=temperature
        )
        module = module_from_reply(completion.message.content, stub.text) if completion else None
        if improving and module == best.module:
            echoes += 1
        if module is None or module in seen:
            continue
        seen.add(module)
        tried += 1
        report = await _judged(run, stub.path, module, timeout_s)
        other = _Best(module, report)
        if best.beaten_by(report):
            best, other, echoes = other, best, 0  # the one it beat may still pass others
        if not report.ok and _complements(best, other):
            crossed, best = await _crossed(run, stub, best, other, seen, timeout_s)
            tried += crossed
        if best.report is not None and best.report.ok:
            break
    return tried, best


def _complements(best: _Best, other: _Best) -> bool:
    """`other` passes a test that `best` fails (both ran the tests to a verdict)."""
    if best.report is None or other.report is None or other.report.passed == 0:
        return False
    return bool(set(best.report.failing) - set(other.report.failing))


async def _crossed(
    run: Run, stub: Stub, best: _Best, donor: _Best, seen: set[str], timeout_s: float
) -> tuple[int, _Best]:
    """Each of the donor's definitions put in place of the best's own, one at a time, the
    tests judging (crossover.py); a cross that passes more becomes the best and the
    crossing goes on from it. Returns the crosses tried and the best after them."""
    tried = 0
    for name in list(definitions(donor.module))[:MAX_CROSSES]:
        module = cross(best.module, donor.module, name)
        if module is None or module in seen:
            continue
        seen.add(module)
        tried += 1
        report = await _judged(run, stub.path, module, timeout_s)
        if best.beaten_by(report):
            assert best.report is not None
            run.emit(Notice(f"{name} taken from another candidate: {report.passed} tests pass "
                            f"where {best.report.passed} did."))  # fmt: skip
            best = _Best(module, report)
        if report.ok:
            break
    return tried, best


def _reply_tokens(stub: Stub) -> int:
    wanted = int(len(stub.text) * REPLY_TOKENS_PER_STUB_BYTE) + MIN_REPLY_TOKENS
    return min(MAX_REPLY_TOKENS, wanted)


async def _write(run: Run, path: str, module: str) -> None:
    await tools.call(run.candidates_context, "write_file", {"path": path, "content": module})


async def _judged(run: Run, path: str, module: str, timeout_s: float) -> TestDigest:
    """`module` written over `path` and the tests run on it."""
    await _write(run, path, module)
    return await run_test_command(run.tool_context, timeout_s=timeout_s)


async def _keep(run: Run, stub: Stub, best: _Best, tried: int) -> None:
    assert best.report is not None
    label = f"implemented {stub.path}"
    run.emit(CandidatesTried(tried, 1, label, CandidateKind.MODULE))
    record_tests(run, best.report)
    run.state.edited = True
    await run.kiln_changed_files()
    run.emit(Checkpointed(await run.sandbox.checkpoint(label), label))
    summary = f"Implemented {stub.path} from the task; the tests pass."
    run.emit(AssistantMessage(summary))
    run.conversation.add_assistant(Message("assistant", summary))
    raise Stop(StopReason.DONE, summary)
