"""A small model's first try: rewrite the suspect functions, and let the tests judge.

Before the first request of a run whose tests fail, kiln runs the failing tests once
under a tracer, so the functions they ran join the suspects (agent/repair/localise.py).
It asks the small model to rewrite each suspect (agent/prompts/rewrite.py), one at a
time, at temperature 0; each request, sampled ones too, starts with the briefing's
context, which ends with the task's documents and the person's task, word for word.
Then it tries its own one-token variants of the suspects and of the constants they read
(agent/repair/variants.py), taking turns with sampled rewrites (up to twice the
profile's candidate count): between two sampled rewrites, variants run for as long as
the rewrite before them took. A failing rewrite's changes are tried one at a time and
left out one at a time first (agent/repair/partial.py), and a rewrite that came closer
has its own variants tried next. Each candidate is put in place of its function on the
workspace as it was, and the tests run. The first that makes them all pass is kept and
the run is done; the tests, not the model, said so. If none does, the workspace goes
back as it was and the usual loop starts, with its own candidates after a failing fix.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import deque
from dataclasses import replace

from agent import tools
from agent.events import (
    AssistantMessage,
    CandidateKind,
    CandidatesTried,
    Checkpointed,
    Phase,
    StopReason,
)
from agent.llm.base import Message
from agent.prompts.briefing import Briefing, is_test_file, read_texts
from agent.prompts.rewrite import rewrite_request, rewritten
from agent.repair.candidates import candidate_count, candidates_allowed, restored_if_cut
from agent.repair.imports import stdlib_imports_added
from agent.repair.localise import coverage_command, parse_coverage, ranked
from agent.repair.partial import parts_of
from agent.repair.suspects import Suspect
from agent.repair.variants import Variant, constants, variants
from agent.run.checks import record_tests
from agent.run.core import Run
from agent.run.sampling import ask_once
from agent.run.stops import Stop
from agent.tools.shell import run_test_command
from agent.tools.testdigest import TestDigest
from sandbox.base import SandboxError
from sandbox.frozen import frozen

# At most this much of the run's time; the loop gets the rest. The loop after failed
# rewrites solved none of the misses on the held-out, tune or bundled sets (stop 18).
WALL_CLOCK_SHARE = 0.9
REWRITE_ROUNDS = 2
# Between two sampled rewrites, variants run for as long as the rewrite before them took
# (a 1.5B model's rewrite takes 4 to 15 s on 2 cores, a variant's test run 0.05 to 0.5 s):
# both kinds get about the same time, whatever the tests cost. At least this many (as
# many as a rewrite took before this was timed), so a quick reply does not starve them.
MIN_VARIANTS_PER_SAMPLE = 30
# A candidate's tests may take this many times as long as the failing run before it is
# taken for hanging (an off-by-one can loop forever), and at least MIN_TESTS_S.
TESTS_SLOWDOWN = 5
MIN_TESTS_S = 15.0
MAX_CLOSER = 3  # rewrites that came closer whose own variants are tried
MAX_ASKED = 4  # the model is asked to rewrite the likeliest suspects only


async def rewrite_first(run: Run, plan: Briefing | None) -> None:
    """Try rewrites of the suspects `plan` names, at the start of the first run; raises
    Stop(DONE) when one passes."""
    if plan is None or plan.baseline is None or not run.tool_context.test_command:
        return
    if not candidates_allowed(run):
        return
    await run.deps.before_change()
    plan = replace(plan, suspects=await _by_coverage(run, plan))
    if not plan.suspects:  # neither reading the tests nor running them found one
        return
    run.enter(Phase.EDIT)
    base = await run.sandbox.checkpoint("before rewrites")
    async with restored_if_cut(run.sandbox, base):
        tried, kept = await _sample(run, plan, base)
    if kept is None:
        run.emit(CandidatesTried(tried, 0, "", CandidateKind.REWRITE))
        await run.sandbox.restore(base)
        return
    await _keep(run, kept, tried)  # sampling stops at the first that passes: it is in place


async def _by_coverage(run: Run, plan: Briefing) -> tuple[Suspect, ...]:
    """The suspects as the failing tests ran them (agent/repair/localise.py); as the
    briefing has them when the tests cannot be traced."""
    baseline = plan.baseline
    command = coverage_command(run.tool_context.test_command, baseline.failing) if baseline else ""
    if not baseline or not command:
        return plan.suspects
    try:
        result = await run.sandbox.exec(command, timeout=_tests_limit(baseline))
    except SandboxError:
        return plan.suspects
    failing, called = parse_coverage(result.output)
    paths = sorted({c.path for c in called if not is_test_file(c.path)})
    texts = await read_texts(run.sandbox, paths)
    return tuple(ranked(list(plan.suspects), failing, called, texts, is_test_file))


def _tests_limit(baseline: TestDigest | None) -> float:
    """How long a test run may take before it is taken for hanging."""
    return max(MIN_TESTS_S, TESTS_SLOWDOWN * (baseline.duration_s if baseline else 0.0))


class _Tries:
    """Puts each candidate text in place of its suspect on the base workspace and runs the
    tests: the one thing every kind of candidate shares."""

    def __init__(self, run: Run, base: str, baseline: TestDigest | None) -> None:
        self.run, self.base, self.baseline = run, base, baseline
        self.timeout_s = _tests_limit(baseline)
        self.tried = 0
        self.seen: set[tuple[str, str]] = set()

    async def report(self, suspect: Suspect, new: str, imports: bool = False) -> TestDigest | None:
        """The tests' report with `new` in place of `suspect`, or None for a repeat or an
        edit that does not apply."""
        if (suspect.path, new) in self.seen:
            return None
        self.seen.add((suspect.path, new))
        run = self.run
        await run.sandbox.restore(self.base)
        edit = {"path": suspect.path, "old_text": suspect.text, "new_text": new}
        applied = await tools.call(run.candidates_context, "edit_file", edit)
        if not applied.ok:
            return None
        if imports:
            await _add_imports(run, suspect.path)
        self.tried += 1
        return await run_test_command(run.tool_context, timeout_s=self.timeout_s)

    def closer(self, report: TestDigest) -> bool:
        """More tests pass than at the baseline, and none fails that passed there."""
        base = self.baseline
        if base is None or report.timed_out or report.passed <= base.passed:
            return False
        fewer = report.failed + report.errors < base.failed + base.errors
        return fewer and set(report.failing) <= set(base.failing)


class _Pending:
    """The variants still to try, each with the suspect whose text it replaces; those of a
    rewrite that came closer go first: it is often one token from passing."""

    def __init__(self, suspects: list[Suspect], texts: tuple[str, ...]) -> None:
        self.texts = texts  # what their quoted texts may be varied to
        self._sources = deque([((v, v.suspect) for v in variants(suspects, texts))])
        self.closer = 0

    def put_first(self, suspect: Suspect, rewrite: str) -> None:
        if self.closer >= MAX_CLOSER:
            return
        self.closer += 1
        end_line = suspect.line + rewrite.count("\n")
        near = Suspect(suspect.path, suspect.name, suspect.line, end_line, rewrite)
        self._sources.appendleft((v, suspect) for v in variants([near], self.texts))

    def put_parts_first(self, suspect: Suspect, rewrite: str) -> None:
        self._sources.appendleft((v, suspect) for v in parts_of(suspect, rewrite))

    def take(self) -> tuple[Variant, Suspect] | None:
        while self._sources:
            if (taken := next(self._sources[0], None)) is not None:
                return taken
            self._sources.popleft()
        return None


async def _sample(run: Run, plan: Briefing, base: str) -> tuple[int, _Kept | None]:
    """Candidates until one passes, or the count and variants run out, or the time share
    is spent: the model's likeliest rewrite of each suspect, then kiln's one-token variants
    taking turns with sampled rewrites, for as long as the rewrite before them took;
    variants of a rewrite that came closer first. How
    many were tried, and the one that passes."""
    limits = run.settings.limits
    budget = limits.timeout_s * WALL_CLOCK_SHARE if limits.timeout_s else None
    suspects, count = plan.suspects, candidate_count(run)
    asked = suspects[: min(MAX_ASKED, count)]
    tries = _Tries(run, base, plan.baseline)
    texts = await read_texts(run.sandbox, sorted({s.path for s in suspects}))  # as at base
    pending = _Pending(constants(list(suspects), texts), (*texts.values(), plan.failure))

    def spent() -> bool:
        return budget is not None and run.state.elapsed > budget

    last_rewrite_s = 0.0

    async def rewrite(suspect: Suspect, temperature: float) -> _Kept | None:
        nonlocal last_rewrite_s
        started = run.state.elapsed
        new = await _rewrite(run, plan, suspect, temperature)
        last_rewrite_s = run.state.elapsed - started
        report = await tries.report(suspect, new, imports=True) if new else None
        if new and report and report.ok:
            return _Kept(suspect, report, f"rewrote {suspect.name} in {suspect.path}")
        if new and report and tries.closer(report):
            pending.put_first(suspect, new)
        if new and report:
            pending.put_parts_first(suspect, new)
        return None

    for suspect in asked:  # the likeliest reply of each first
        if spent():
            return tries.tried, None
        if kept := await rewrite(suspect, 0.0):
            return tries.tried, kept
    # Twice the count: after rewrites the small model's own loop rarely fixes what they
    # did not, so the requests are better spent here.
    samples = range(len(asked), REWRITE_ROUNDS * count)
    for attempt in itertools.count(len(asked)):
        if spent():
            break
        round_ends, took = run.state.elapsed + last_rewrite_s, 0
        while took < MIN_VARIANTS_PER_SAMPLE or run.state.elapsed < round_ends:
            if (taken := pending.take()) is None:
                break
            took += 1
            variant, suspect = taken
            rewritten_first = variant.suspect is not suspect
            of_rewrite = rewritten_first or variant.of_rewrite
            report = await tries.report(suspect, variant.text, imports=of_rewrite)
            if report and report.ok:
                label = _changed(variant)
                if rewritten_first:
                    label = f"rewrote {suspect.name} in {suspect.path}, then {label}"
                elif variant.of_rewrite:
                    label = f"kept part of a rewrite of {suspect.name}: {label}"
                how = CandidateKind.PART_OF_REWRITE if variant.of_rewrite else CandidateKind.VARIANT
                return tries.tried, _Kept(suspect, report, label, how)
            if spent():
                return tries.tried, None
        if attempt in samples:
            temperature = run.deps.client.profile.candidate_temperature
            suspect = asked[_likelier(attempt, len(asked))]
            if kept := await rewrite(suspect, temperature):
                return tries.tried, kept
        elif not took:
            break
    return tries.tried, None


@frozen
class _Kept:
    suspect: Suspect
    report: TestDigest
    label: str  # what was changed, for the person
    # The model's reply, kiln's own variant (of a suspect or of a rewrite that came
    # closer), or part of a reply, picked by kiln
    how: CandidateKind = CandidateKind.REWRITE


async def _rewrite(run: Run, plan: Briefing, suspect: Suspect, temperature: float) -> str | None:
    """The model's rewrite of `suspect`, or None without a usable one."""
    completion = await ask_once(
        run,
        rewrite_request(plan.context, plan.failure, suspect),
        [],
        max_tokens=_reply_tokens(suspect),
        temperature=temperature,
    )
    return rewritten(completion.message.content, suspect) if completion else None


async def _keep(run: Run, kept: _Kept, tried: int) -> None:
    run.emit(CandidatesTried(tried, 1, kept.label, kept.how))
    record_tests(run, kept.report)
    run.state.edited = True
    await run.kiln_changed_files()
    label = "rewrite that passes"
    run.emit(Checkpointed(await run.sandbox.checkpoint(label), label))
    summary = f"{kept.label[0].upper()}{kept.label[1:]}; the tests pass."
    run.emit(AssistantMessage(summary))
    run.conversation.add_assistant(Message("assistant", summary))
    raise Stop(StopReason.DONE, summary)


def _changed(variant: Variant) -> str:
    """`changed `a - b` to `a + b` in total (calc.py)`, `added `if not xs: return 0` to
    total (calc.py)` or `removed `i += 1` from ...`, each line cut to a readable length."""
    before, after = (_short(line) for line in (variant.before, variant.after))
    where = f"{variant.suspect.name} ({variant.suspect.path})"
    if not before:
        return f"added `{after}` to {where}"
    return (
        f"changed `{before}` to `{after}` in {where}"
        if after
        else f"removed `{before}` from {where}"
    )


def _short(line: str, most: int = 70) -> str:
    return line if len(line) <= most else line[: most - 3] + "..."


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
            run.candidates_context, "edit_file", {"path": path, "old_text": old, "new_text": new}
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
