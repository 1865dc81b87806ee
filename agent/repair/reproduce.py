"""A request with no failing test: a failing test is written from the person's words first.

When a small model's run starts with tests that pass, a change asked for has nothing to
judge it by. kiln asks for one new test file (agent/prompts/reproduce.py) and keeps it only
when it fails on the code as it is: run alone first, for the request's reason and not a
mistake of its own, then with all the tests, failing only in itself while every test that
passed still passes. The run then goes on as for failing tests (the briefing is made again
from that run, so rewrites and the loop work towards it), and the new test is
part of the diff the person approves. When no such test comes within the time share, the
file is removed and the run goes on without it, saying so.
"""

from __future__ import annotations

import posixpath
import re

from agent import tools
from agent.events import Notice
from agent.llm.base import Message
from agent.prompts.briefing import Briefing, brief, is_test_file, read_texts
from agent.prompts.reproduce import relevant_files, reply_test_file, reproduce_request
from agent.repair.candidates import candidates_allowed
from agent.run.checks import record_tests
from agent.run.core import Run
from agent.run.sampling import ask_once
from agent.tools.shell import run_test_command, tests_in
from agent.tools.testdigest import TestDigest

WALL_CLOCK_SHARE = 0.3  # of the run's clock; the fix needs the rest
ATTEMPTS = 3
REPLY_TOKENS = 1024


async def reproduce_first(
    run: Run, briefing: Briefing | None, task: str, wanted: bool
) -> Briefing | None:
    """Write a failing test for `task` when the run starts on passing tests; `wanted`:
    the task asks for a change (a question needs no test). Returns the briefing to go on
    with: made again from the new test's failing run when there is one, else `briefing`."""
    if briefing is None or not wanted or not run.tool_context.test_command:
        return briefing
    if briefing.baseline is not None or not candidates_allowed(run):
        return briefing  # the tests fail already: they are the judge
    await run.deps.before_change()
    before = run.deps.tests_before()
    if before is None or not before.ok or not before.passed:
        return briefing  # no tests that run here to follow the style of, or to keep passing
    listing = await run.sandbox.exec("git ls-files", timeout=30)
    files = [p for p in listing.output.split("\n") if p.endswith(".py")] if listing.ok else []
    tests = [p for p in files if is_test_file(p)]
    texts = await read_texts(run.sandbox, [p for p in files if p not in tests])
    code = relevant_files(task, {p: t for p, t in texts.items() if t})
    if not tests or not code:
        return briefing
    test_texts = await read_texts(run.sandbox, tests)
    example = style_example(test_texts, code)
    if example is None:
        return briefing  # no test file that holds tests: nothing to follow the style of
    path = new_test_path([example[0], *tests], code)
    documents = briefing.documents
    messages = reproduce_request(task, documents, {p: texts[p] for p in code}, example, path)
    report = await _failing_test(run, messages, path, before, task)
    if report is None:
        run.emit(Notice("kiln could not write a test that fails for this request; the "
                        "model works on it without one."))  # fmt: skip
        return briefing
    record_tests(run, report)
    run.state.reproduction = (path, await run.sandbox.read_file(path))
    run.emit(Notice(f"kiln wrote {path} from your request; it fails on the code as it is, "
                    "so the tests can tell when the request is carried out."))  # fmt: skip
    run.conversation.add_feedback(
        f"kiln wrote {path} from the request; it fails now:\n{report.text}\n\n"
        f"Make it pass by changing the code, not {path}."
    )
    return await brief(task, report, run.sandbox, run.tool_context.repo_index)


# A new test that fails this way fails on its own mistake, not for the request: a name it
# never imported or defined, a file that does not parse, a pytest fixture that is not
# there, a module that is not installed. (The code it tests ran before, so these are the
# test's; a feature not written yet fails on an import of a name the request names.)
_OWN_MISTAKE = re.compile(r"\b(NameError|SyntaxError|IndentationError)\b|fixture '[^']+' not found")
_IMPORT_FAILED = re.compile(r"\b(?:ImportError|ModuleNotFoundError)\b[^'\n]*'([^']+)'")


def style_example(test_texts: dict[str, str], code_files: list[str]) -> tuple[str, str] | None:
    """The project's test file to follow: one that holds tests (never an `__init__.py` or
    a conftest), the nearest to the code the request is about (named after it, else in the
    same folder, else the one sharing most of its words), the longest breaking ties."""
    real = {
        path: text
        for path, text in test_texts.items()
        if text
        and posixpath.basename(path) not in ("__init__.py", "conftest.py")
        and re.search(r"^\s*(async\s+)?def\s+test|^class\s+\w*Test|TestCase\)", text, re.M)
    }
    if not real:
        return None
    stems = {posixpath.splitext(posixpath.basename(c))[0] for c in code_files}
    folders = {posixpath.dirname(c) for c in code_files}

    def nearness(path: str) -> tuple[int, int, int]:
        name = posixpath.basename(path)
        named = any(stem and stem in name for stem in stems)
        beside = posixpath.dirname(path) in folders
        return (named, beside, len(real[path]))

    best = max(real, key=nearness)
    return best, real[best]


def new_test_path(test_files: list[str], code_files: list[str]) -> str:
    """Where the new test goes: beside the existing tests, named after the code it checks,
    never over a file that exists."""
    folder = posixpath.dirname(test_files[0]) if test_files else ""
    stem = posixpath.splitext(posixpath.basename(code_files[0]))[0] if code_files else "request"
    taken = set(test_files)
    for n in range(1, 100):
        name = f"test_{stem}_requested{'' if n == 1 else n}.py"
        path = posixpath.join(folder, name)
        if path not in taken:
            return path
    return posixpath.join(folder, "test_requested.py")


async def _failing_test(
    run: Run, messages: list[Message], path: str, before: TestDigest, task: str
) -> TestDigest | None:
    """The tests' run with a new test that fails as it should; None when no reply gave one."""
    limits, profile = run.settings.limits, run.deps.client.profile
    budget = limits.timeout_s * WALL_CLOCK_SHARE if limits.timeout_s else None
    for attempt in range(ATTEMPTS):
        if budget is not None and run.state.elapsed > budget:
            break
        temperature = 0.0 if attempt == 0 else profile.candidate_temperature
        reply = await ask_once(run, messages, [], max_tokens=REPLY_TOKENS, temperature=temperature)
        test = reply_test_file(reply.message.content) if reply else None
        if test is None:
            continue
        await tools.call(run.candidates_context, "write_file", {"path": path, "content": test})
        if await _fails_alone(run, path, task):
            report = await run_test_command(run.tool_context)  # and the rest still pass
            if _fails_for_the_request(report, path, before, task):
                return report
        await run.sandbox.exec(f"rm -f -- '{path}'", timeout=30)
    return None


# Runners that take one test file after their own command: the file is run alone with it.
_TAKES_A_FILE = re.compile(r"^(?:[\w./-]*python[\d.]*\s+-m\s+pytest|pytest|py\.test)\b")
_UNITTEST = re.compile(r"^([\w./-]*python[\d.]*)\s+-m\s+unittest\b")


def alone_command(test_command: str, path: str) -> str:
    """The project's runner on the one test file `path`, or "" when it cannot be told
    apart (a make target, a tox environment)."""
    if _TAKES_A_FILE.match(test_command):
        return f"{test_command} {path}"
    unittest = _UNITTEST.match(test_command)
    if unittest:
        return f"{unittest.group(1)} -m unittest {path}"
    return ""


async def _fails_alone(run: Run, path: str, task: str) -> bool:
    """The new test, run alone first: it must fail, and for the request's reason, not its
    own (a name it never defined, an import of something the request never names). True
    as well when the runner cannot run one file: the whole run judges it then."""
    command = alone_command(run.tool_context.test_command, path)
    if not command:
        return True
    report = await tests_in(run.sandbox, command, run.settings.tests.timeout_s)
    if report.ok or report.timed_out:
        return False
    return not own_mistake("\n".join(report.failures) or report.text, task)


def _fails_for_the_request(report: TestDigest, path: str, before: TestDigest, task: str) -> bool:
    """It fails, only in the new file, every test that passed before still passes, and
    not on a mistake of its own (`own_mistake`)."""
    if report.ok or report.timed_out or not report.failing:
        return False
    stem = posixpath.splitext(posixpath.basename(path))[0]
    if not all(stem in name for name in report.failing) or report.passed < before.passed:
        return False
    return not own_mistake("\n".join(report.failures) or report.text, task)


def own_mistake(said: str, task: str) -> bool:
    """The failure is the new test's own (see `_OWN_MISTAKE`); an import fails for the
    request only when the name it could not import is one the request names."""
    mistake = _OWN_MISTAKE.search(said)
    if mistake and mistake.group(0) not in task:
        return True
    return any(name.split(".")[-1] not in task for name in _IMPORT_FAILED.findall(said))
