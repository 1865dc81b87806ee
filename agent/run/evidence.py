"""What a finished run can show: `done` only with evidence that fits the request.

A run that finishes a request ends in one of three outcomes:

- **answered**: a question, its answer the result.
- **done**: a change with evidence. A change of behaviour (a bug, a feature) needs a test
  that failed on the code as it was and passes now: one that failed in the tests' run before
  any edit (the session's baseline, kiln's own reproduction), or one the change adds, run
  once more on the code as it was (`_new_tests_fail_before`); or the check the request
  names, passing. A change that keeps behaviour (a rename, a refactor, docs, formatting:
  `prompts.shape.keeps_behaviour`) needs the project's tests passing before and after it,
  or touches documentation alone. Either way every changed file must parse.
- **unverified**: a change without such evidence; `evidence` says why. Front ends never
  apply it as if it were done (agent/vcs/landing.py flags it).

A summary that says nothing needed changing, over a diff that changed files, is replaced
by kiln's own account of the diff: the person reads the diff's story, not the model's.
"""

from __future__ import annotations

import posixpath
import re
import shlex

from agent.events import RunStatus, TaskShape
from agent.prompts.briefing import is_test_file
from agent.prompts.shape import asks_for_tests, keeps_behaviour
from agent.run.core import Run
from agent.tools.shell import run_test_command
from agent.tools.syntax import language_for
from agent.tools.testdigest import TestDigest, named_test_command
from agent.vcs.patches import parse_patches
from agent.vcs.unparsable import broken_files
from sandbox.base import SandboxError
from sandbox.frozen import frozen

SHOWN = 4
ENTRY_POINTS = frozenset({"__init__", "__main__", "main", "index", "setup", "conftest"})
DOCUMENTS = (".md", ".rst", ".txt", ".adoc")
# "No changes needed", "nothing to fix", "already works": a summary of no change.
_NO_CHANGE_SAID = re.compile(
    r"\bno (?:code )?(?:changes?|fix(?:es)?|modifications?|edits?) (?:(?:is|are|was|were) )?"
    r"(?:needed|necessary|required)\b|\bnothing (?:needed |needs )?to (?:change|fix|do)\b"
    r"|\bno changes? (?:made|were made)\b|\balready (?:works|correct|passes|handled|fixed)\b",
    re.I,
)


@frozen
class Outcome:
    status: RunStatus  # DONE, UNVERIFIED or ANSWERED
    evidence: str  # what shows it, or why nothing does: one or two sentences
    summary: str  # what the person reads: the model's, unless the diff contradicts it


async def weigh(run: Run, summary: str) -> Outcome:
    """The outcome of a run that finished its request with `summary`."""
    state, sandbox = run.state, run.sandbox
    diff = await sandbox.diff()
    changed = diff != state.diff_at_start
    if state.shape is TaskShape.QUESTION and not changed:
        return Outcome(RunStatus.ANSWERED, "A question: the answer is the result.", summary)
    paths = await sandbox.changed_files()
    if _NO_CHANGE_SAID.search(summary) and paths:
        summary = (
            f"Changed {_names(paths)}. (The model's summary said no change was needed; "
            "the diff says otherwise.)"
        )
    broken = await broken_files(sandbox.repo, diff, sandbox)
    unused = await _unused_new_files(run, diff)
    note = (
        f" New {_names(unused)}: nothing in the repository imports or tests it." if unused else ""
    )
    if broken:
        said = f"{_names(broken)} does not parse in the result."
        return Outcome(RunStatus.UNVERIFIED, said + note, summary)
    words = run.conversation.instructions[-1] if run.conversation.instructions else ""
    if keeps_behaviour(words):
        status, said = _kept(run, paths)
    else:
        status, said = await _behaviour_changed(run, paths, words)
    return Outcome(status, said + note, summary)


def _kept(run: Run, paths: list[str]) -> tuple[RunStatus, str]:
    """A change that keeps behaviour: the tests passed before it and pass after it."""
    before, after = run.deps.tests_before(), run.state.last_tests
    if all(p.lower().endswith(DOCUMENTS) for p in paths):
        return RunStatus.DONE, "Only documentation changed; every changed file parses."
    if before is None or after is None or not before.ran:
        return RunStatus.UNVERIFIED, "No tests ran to show that behaviour is kept."
    if not before.ok:
        return RunStatus.UNVERIFIED, "The tests failed before the change, so they cannot show that behaviour is kept."  # fmt: skip
    if not after.ok or after.ran < before.ran:
        return RunStatus.UNVERIFIED, "Fewer tests pass after the change than before it."
    return (
        RunStatus.DONE,
        f"The project's {after.ran} tests passed before the change and pass after it; "
        "every changed file parses.",
    )


async def _behaviour_changed(run: Run, paths: list[str], words: str) -> tuple[RunStatus, str]:
    """A change of behaviour: a test that failed before and passes now, or the named check."""
    state, context = run.state, run.tool_context
    after = state.last_tests
    if not context.test_command or after is None:
        return RunStatus.UNVERIFIED, (
            "No test shows that the change works: kiln knows no test command for this "
            "repository ([tests] command in .kiln.toml names one)."
        )
    if not after.ok:
        return RunStatus.UNVERIFIED, "The tests do not pass after the change."
    before = run.deps.tests_before()
    if not any(not is_test_file(p) for p in paths):
        return _tests_added(words, before, after)
    named = named_test_command(words)
    if named and named == context.test_command:
        return RunStatus.DONE, f"The check the request names, `{named}`, passes."
    fixed = _failed_before_pass_now(await _failed_before(run, before), after)
    if fixed:
        return RunStatus.DONE, f"{fixed} failed before the change and pass{'es' if fixed.startswith('1 ') else ''} now."  # fmt: skip
    tests = [p for p in paths if is_test_file(p)]
    if tests:
        shown = await _new_tests_fail_before(run, tests)
        if shown is not None:
            return RunStatus.DONE, shown
        return RunStatus.UNVERIFIED, (
            f"The tests the change adds or edits ({_names(tests)}) pass on the code as it "
            "was too, so they do not show that the change works."
        )
    return RunStatus.UNVERIFIED, (
        "The tests passed before the change too, and no test that failed before passes "
        "now: nothing shows that the change works."
    )


def _tests_added(words: str, before: TestDigest | None, after: TestDigest) -> tuple[RunStatus, str]:
    """Only tests changed: done when tests were asked for and more of them run and pass."""
    ran_before = before.ran if before is not None else 0
    if asks_for_tests(words) and after.ran > ran_before:
        return RunStatus.DONE, f"{after.ran - ran_before} new tests run and pass."
    return RunStatus.UNVERIFIED, "Only tests changed: nothing shows the code works differently."


async def _failed_before(run: Run, baseline: TestDigest | None) -> TestDigest | None:
    """The last test run that failed before this run's first edit (kiln's reproduction
    among them, unless the test it wrote was changed since), else the session's baseline
    when the run started on the repository as it is."""
    state = run.state
    if state.reproduction is not None and state.failed_before is not None:
        path, written = state.reproduction
        try:
            kept = await run.sandbox.read_file(path) == written
        except (FileNotFoundError, SandboxError):
            kept = False
        if not kept:
            return None  # a reproduction the change rewrote shows nothing
    if state.failed_before is not None:
        return state.failed_before
    if state.diff_at_start or baseline is None or baseline.command != run.tool_context.test_command:
        return None
    return baseline


def _failed_before_pass_now(before: TestDigest | None, after: TestDigest) -> str:
    """'2 tests (test_a, test_b)' that failed in a run before any edit and pass now; ''."""
    if before is None or before.ok or before.timed_out or after.ran < before.ran:
        return ""
    names = [n for n in before.failing if n not in after.failing]
    if names:
        return f"{len(names)} test{'s' if len(names) > 1 else ''} ({_names(names)})"
    return f"The tests ({before.failed + before.errors} failing)"


async def _new_tests_fail_before(run: Run, tests: list[str]) -> str | None:
    """Run the tests the change adds or edits on the code as it was (the workspace at the
    run's start, with only those test files changed): the sentence saying which failed
    there and pass now, or None when none did. The workspace is put back as it was, even
    when cancelled."""
    sandbox, state = run.sandbox, run.state
    start = state.start_ref
    if start is None:
        return None
    contents: dict[str, bytes | None] = {}
    for path in tests:
        try:
            contents[path] = await sandbox.read_file(path)
        except (FileNotFoundError, SandboxError):
            contents[path] = None  # deleted by the change
    here = await sandbox.checkpoint("the change, before its tests ran on the code as it was")
    try:
        await sandbox.restore(start)
        for path, data in contents.items():
            if data is None:
                await sandbox.exec(f"rm -f -- {shlex.quote(path)}", timeout=30)
            else:
                await sandbox.write_file(path, data)
        report = await run_test_command(run.tool_context)
    finally:
        await sandbox.restore(here)
    if report.ok or report.timed_out:
        return None
    after = state.last_tests
    failing = [n for n in report.failing if after is None or n not in after.failing]
    which = f" ({_names(failing)})" if failing else ""
    return (
        f"The tests the change adds or edits fail on the code as it was{which} and pass "
        "with the change."
    )


async def _unused_new_files(run: Run, diff: str) -> list[str]:
    """New code files (not tests) whose name no other code file of the repository
    mentions: a module nothing imports, where the request was about code that is there."""
    new = [
        patch.new_path
        for patch in parse_patches(diff)
        if not patch.old_path and patch.new_path and patch.symlink_to is None
    ]
    unused = []
    for path in new:
        stem = posixpath.splitext(posixpath.basename(path))[0]
        if language_for(path) is None or is_test_file(path) or stem in ENTRY_POINTS:
            continue
        found = await run.sandbox.exec(
            f"git grep -I -l -w --untracked -e {shlex.quote(stem)} -- . {shlex.quote(':!' + path)}",
            timeout=30,
        )
        mentions = [p for p in found.output.splitlines() if language_for(p) is not None]
        if not mentions:  # a README naming it imports nothing
            unused.append(path)
    return unused


def _names(paths: list[str]) -> str:
    more = f" and {len(paths) - SHOWN} more" if len(paths) > SHOWN else ""
    return ", ".join(paths[:SHOWN]) + more
