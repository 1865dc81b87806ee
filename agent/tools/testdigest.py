"""Which command runs a repository's tests, and a short digest of one run.

The model never sees megabytes of test output: it gets the counts, the failing test names,
the assertion messages and the traceback lines that point into the code, capped at a few KB.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shlex
import sys
import tomllib
from pathlib import Path
from typing import Any

from sandbox.frozen import frozen

DIGEST_CAP = 3000
PER_FAILURE_LINES = 12
# Failures kept one by one beside the capped text, for a reader that shows a few at a
# time (an improvement request turns through them): more than the text has room for.
MAX_FAILURES_KEPT = 60


# --- detection ---------------------------------------------------------------------


def detect_test_command(repo: Path, configured: str = "") -> str:
    """`[tests] command` if set, else what the repository's files say; "" when unknown."""
    if configured.strip():
        return configured.strip()
    return next(iter(candidate_test_commands(repo)), "")


def candidate_test_commands(repo: Path) -> list[str]:
    """Every test command the repository's files suggest, the likeliest first (the next
    one is tried when a command does not exist in the sandbox)."""
    found: list[str] = []
    if _uses_pytest(repo):
        found.append("python3 -m pytest -q -rfE --color=no")
    if (repo / "package.json").is_file() and _npm_has_test(repo / "package.json"):
        found.append("npm test --silent")
    if (repo / "go.mod").is_file():
        found.append("go test ./...")
    if (repo / "Cargo.toml").is_file():
        found.append("cargo test --quiet")
    if _make_has_test(repo):
        found.append("make test")
    if any(repo.glob("*.py")) or any(repo.glob("*/*.py")):
        found.append("python3 -m unittest discover -v")
    return found


# A command the person's task names, in backticks or after "run:" (`python3 -m unittest`).
_NAMED = re.compile(r"`([^`\n]+)`|\brun:\s*([^\n]+?)\s*(?:$|[.;)](?:\s|$))", re.M | re.I)
_TEST_RUNNERS = re.compile(
    r"^(?:[\w./-]*python[\d.]*\s+-m\s+(?:pytest|unittest)|pytest|py\.test|tox|nox"
    r"|npm\s+(?:run\s+)?test|yarn\s+test|pnpm\s+test|node\s+--test|go\s+test|cargo\s+test"
    r"|make\s+(?:test|check))\b"
)


def named_test_command(task: str) -> str:
    """The test command the task names ("the tests fail (`python3 -m unittest`)"), or ""."""
    for quoted, after_run in _NAMED.findall(task):
        command = quoted.strip() if quoted else _without_closing_marks(after_run)
        if _TEST_RUNNERS.match(command):
            return command
    return ""


_OPENERS = {")": "(", "]": "[", "}": "{"}


def _without_closing_marks(text: str) -> str:
    """`run: X` without the sentence's own marks after it: "(run: make test)." ends in
    a full stop and a bracket opened before `run:`; a bracket or quote X opened stays."""
    text = text.strip()
    while text:
        last = text[-1]
        unbalanced = (last in _OPENERS and text.count(last) > text.count(_OPENERS[last])) or (
            last in "\"'" and text.count(last) % 2 == 1
        )
        if last not in ".,;:!?" and not unbalanced:
            break
        text = text[:-1].rstrip()
    return text


def runnable_check(command: str) -> str:
    """A shell test that succeeds when `command`'s runner exists (its program, and for
    `python -m X` the module X): cheap enough to ask before anything is sent. The module
    is found, not imported: importing unittest costs the start of a session 25 ms, pytest
    a tenth of a second, and a module that is there but broken shows in the baseline run.
    A standard-library module (unittest) is there wherever its interpreter is, so only the
    interpreter is looked for: starting one to look costs the session's start 20 ms (a
    distribution that splits its standard library shows in the baseline run too)."""
    words = command.split()
    module = words[2].split(".")[0] if len(words) >= 3 and words[1] == "-m" else ""
    if module and "python" in words[0] and module not in sys.stdlib_module_names:
        found = f"import importlib.util as u, sys; sys.exit(u.find_spec({words[2]!r}) is None)"
        return f"{words[0]} -c {shlex.quote(found)} >/dev/null 2>&1"
    return f"command -v {shlex.quote(words[0])} >/dev/null 2>&1" if words else "false"


def runner_missing(report: TestDigest) -> bool:
    """The test command itself does not exist in the sandbox (not: its tests failed)."""
    return report.exit_code == 127 or bool(
        re.search(r"No module named (?:pytest|unittest)\b", report.text)
    )


def _uses_pytest(repo: Path) -> bool:
    if (repo / "pytest.ini").is_file() or (repo / "conftest.py").is_file():
        return True
    if (repo / "tests" / "conftest.py").is_file():
        return True
    # `name_test.py` (Exercism's, Go's habit): unittest's discovery never finds it, pytest does.
    if next(repo.glob("*_test.py"), None) or next(repo.glob("tests/*_test.py"), None):
        return True
    pyproject = repo / "pyproject.toml"
    if pyproject.is_file():
        try:
            data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError):
            data = {}
        if "pytest" in data.get("tool", {}):
            return True
    for name, section in (("setup.cfg", "[tool:pytest]"), ("tox.ini", "[pytest]")):
        cfg = repo / name
        if cfg.is_file() and section in cfg.read_text(errors="replace"):
            return True
    # test files written in pytest style (bare asserts in test_ functions, no unittest)
    for test_file in [*repo.glob("test_*.py"), *repo.glob("tests/test_*.py")][:20]:
        text = test_file.read_text(errors="replace")
        if "import pytest" in text or ("unittest" not in text and "def test_" in text):
            return True
    return False


def _npm_has_test(package_json: Path) -> bool:
    try:
        scripts = json.loads(package_json.read_text(encoding="utf-8")).get("scripts", {})
    except (ValueError, OSError):
        return False
    test = scripts.get("test", "") if isinstance(scripts, dict) else ""
    return bool(test) and "no test specified" not in test


def _make_has_test(repo: Path) -> bool:
    for name in ("Makefile", "makefile", "GNUmakefile"):
        path = repo / name
        if path.is_file() and re.search(r"^test\s*:", path.read_text(errors="replace"), re.M):
            return True
    return False


# --- digest --------------------------------------------------------------------------


@frozen
class TestDigest:
    """One test run, digested: its counts, the failing tests and the short text the model reads."""

    command: str
    exit_code: int
    passed: int
    failed: int
    errors: int
    failing: tuple[str, ...]
    text: str  # what the model reads
    timed_out: bool = False
    duration_s: float = 0.0
    # Each failure's own account, its title first (pytest's `-- test`, unittest's `FAIL:
    # test (where)`, TAP's `not ok:`), uncapped by the text's size; empty for the runners
    # whose output does not come apart by test (go, cargo, jest, any other).
    failures: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.failed and not self.errors and not self.timed_out

    @property
    def ran(self) -> int:
        """Tests that ran to a verdict (an error collecting them is not a test)."""
        return self.passed + self.failed


def tests_dict(report: TestDigest | None) -> dict[str, Any] | None:
    """A digest as the JSON of `kiln run` and `kiln review` reports it."""
    if report is None:
        return None
    return {
        "command": report.command,
        "passed": report.passed,
        "failed": report.failed,
        "errors": report.errors,
        "exit_code": report.exit_code,
        "ok": report.ok,
        "failing": list(report.failing),
    }


def judged_against(report: TestDigest, ran_before: int) -> TestDigest:
    """`report`, failed when no test ran where `ran_before` did: deleted tests (or a
    deleted repository) are not tests that pass."""
    if ran_before <= 0 or report.ran > 0:
        return report
    why = (
        f"Tests FAILED: no tests ran, where {ran_before} ran before (`{report.command}`); "
        "the tests were deleted or can no longer be found: bring them back, or the task "
        "cannot finish."
    )
    return dataclasses.replace(
        report, errors=max(report.errors, 1), text=_cap(why + "\n\n" + report.text)
    )


def digest(
    command: str, output: str, exit_code: int, *, timed_out: bool = False, duration_s: float = 0.0
) -> TestDigest:
    """Parse pytest, unittest, go, cargo, jest and TAP (node --test) output; any other
    runner gets its tail."""
    for parser in (_pytest, _unittest, _tap, _go, _cargo, _jest):
        parsed = parser(output)
        if parsed is not None:
            passed, failed, errors, failing, accounts, details = parsed
            break
    else:
        passed = failed = errors = 0
        failing, accounts, details = [], [], _tail(output, 40)
        if exit_code != 0:
            errors = 1
    if exit_code != 0 and not (failed or errors):
        errors = 1  # the runner failed without a parsable failure: collection or setup error
        details = details or _tail(output, 40)
    status = "PASSED" if exit_code == 0 and not timed_out else "FAILED"
    if timed_out:
        status = "TIMED OUT"
    head = f"Tests {status}: {passed} passed, {failed} failed, {errors} errors  (`{command}`)"
    if failing:
        head += "\nFailing: " + ", ".join(failing[:20])
    text = _cap(head + ("\n\n" + details if details and status != "PASSED" else ""))
    return TestDigest(
        command, exit_code, passed, failed, errors, tuple(failing), text, timed_out, duration_s,
        tuple(accounts[:MAX_FAILURES_KEPT]),
    )  # fmt: skip


def _cap(text: str, cap: int = DIGEST_CAP) -> str:
    if len(text) <= cap:
        return text
    return text[: cap - 40].rstrip() + "\n[... digest cut at a few KB ...]"


def _tail(output: str, lines: int) -> str:
    return "\n".join(output.strip().splitlines()[-lines:])


# passed, failed, errors, the failing tests' names, each failure's account, the details
Parsed = tuple[int, int, int, list[str], list[str], str] | None
_PYTEST_TOTALS = re.compile(r"^=*\s*(?:\d+ \w+(?:, )?)+.* in [\d.]+s", re.M)


def _count(text: str, word: str) -> int:
    match = re.search(rf"(\d+) {word}", text)
    return int(match.group(1)) if match else 0


def _pytest(output: str) -> Parsed:
    totals = [m.group(0) for m in _PYTEST_TOTALS.finditer(output)]
    if not totals:
        return None
    last = totals[-1]
    failing = re.findall(r"^(?:FAILED|ERROR) (\S+)", output, re.M)
    accounts = []
    sections = re.split(r"^_{3,} (.+?) _{3,}$", output, flags=re.M)[1:]
    for title, section in zip(sections[::2], sections[1::2], strict=False):
        keep = [
            line
            for line in section.splitlines()
            if line.startswith(("E ", ">")) or re.match(r"^\S+:\d+: \w", line)
        ]
        accounts.append("\n".join([f"-- {title.strip()}", *keep[:PER_FAILURE_LINES]]))
    summary = [line for line in output.splitlines() if re.match(r"^(FAILED|ERROR) ", line)]
    body = "\n".join(accounts[:10]) or "\n".join(summary[:20])
    passed, failed, errors = (_count(last, w) for w in ("passed", "failed", "error"))
    return (passed, failed, errors, failing, accounts, body)


def _unittest(output: str) -> Parsed:
    ran = re.search(r"^Ran (\d+) tests? in", output, re.M)
    if not ran:
        return None
    total = int(ran.group(1))
    result = re.search(r"^FAILED \((.*)\)", output, re.M)
    outcome = result.group(1) if result else ""
    failed, errors = _keyword(outcome, "failures"), _keyword(outcome, "errors")
    skipped = _keyword(output, "skipped")
    failing = [
        f"{name} ({where})" if where else name
        for name, where in re.findall(r"^(?:FAIL|ERROR): (\S+)(?: \((\S+)\))?", output, re.M)
    ]
    accounts = []
    for block in re.split(r"^={50,}$", output, flags=re.M)[1:]:
        lines = block.strip().splitlines()
        title = lines[0] if lines else ""
        keep = [
            line.rstrip()
            for line in lines[1:]
            if (re.match(r'^\s+File "', line) and "/unittest/" not in line)
            or re.match(r"^\w*(Error|Exception|Failure)\b", line)
            or (line.startswith("    ") and not line.strip().startswith("File"))
        ]
        accounts.append("\n".join([title, *keep[-PER_FAILURE_LINES:]]))
    passed = max(0, total - failed - errors - skipped)
    return (passed, failed, errors, failing, accounts, "\n".join(accounts[:20]))


def _keyword(text: str, name: str) -> int:
    match = re.search(rf"{name}=(\d+)", text)
    return int(match.group(1)) if match else 0


def _go(output: str) -> Parsed:
    fails = re.findall(r"^\s*--- FAIL: (\S+)", output, re.M)
    passes = re.findall(r"^\s*--- PASS: (\S+)", output, re.M)
    packages = re.findall(r"^(ok|FAIL)\s+\S+", output, re.M)
    if not (fails or passes or packages):
        return None
    details = [line for line in output.splitlines() if re.match(r"^\s+\S+_test\.go:\d+:", line)]
    return (len(passes), len(fails), 0, fails, [], "\n".join(details[:40]))


def _cargo(output: str) -> Parsed:
    results = re.findall(r"test result: \w+\. (\d+) passed; (\d+) failed", output)
    if not results:
        return None
    passed = sum(int(p) for p, _ in results)
    failed = sum(int(f) for _, f in results)
    failing = re.findall(r"^test (\S+) \.\.\. FAILED", output, re.M)
    details = [
        line
        for line in output.splitlines()
        if "panicked at" in line or "left:" in line or "right:" in line
    ]
    return (passed, failed, 0, failing, [], "\n".join(details[:40]))


def _jest(output: str) -> Parsed:
    match = re.search(r"^Tests:\s+(.*)$", output, re.M)
    if not match:
        return None
    failing = re.findall(r"^\s+● (.+)$", output, re.M)
    details = [
        line.strip()
        for line in output.splitlines()
        if re.match(r"^\s+(Expected|Received|at .*:\d+)", line)
    ]
    return (
        _count(match.group(1), "passed"),
        _count(match.group(1), "failed"),
        0,
        failing,
        [],
        "\n".join(details[:40]),
    )


_TAP_NOISE = ("duration_ms:", "---", "...", "failureType:", "code:", "stack: |-", "error: |-")


def _tap(output: str) -> Parsed:
    """TAP, as `node --test` writes it: top-level `ok N - title` and `not ok N - title`
    (subtests are indented), each failure followed by a YAML block with its error."""
    if not re.search(r"^(TAP version \d+|1\.\.\d+)$", output, re.M):
        return None
    results = re.findall(r"^(not ok|ok) \d+ - (.+?)(?: # \w+.*)?$", output, re.M)
    if not results:
        return None
    failing = [title for status, title in results if status == "not ok"]
    accounts = []
    for block in re.split(r"^not ok \d+ - ", output, flags=re.M)[1:]:
        title, _, rest = block.partition("\n")
        body = re.split(r"^  \.\.\.$", rest, maxsplit=1, flags=re.M)[0]
        keep = [
            line.strip()
            for line in body.splitlines()
            if line.strip()
            and not line.strip().startswith(_TAP_NOISE)
            and "(node:" not in line  # node's own frames
        ]
        accounts.append("\n".join([f"not ok: {title}", *keep[:PER_FAILURE_LINES]]))
    passed = len(results) - len(failing)
    return (passed, len(failing), 0, failing, accounts, "\n".join(accounts[:20]))
