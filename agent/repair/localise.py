"""Which functions the failing tests ran: the suspects, by what ran rather than what reads.

The briefing's suspects come from reading the tests: the names they call and one call
further. A bug two calls away, or behind a name the index cannot follow (a method through
an attribute, a function passed as a value), is not among them, and then no rewrite and
no variant can fix it. The tests know better: kiln runs them once more under a tracer
(`sys.settrace`, call events only, Python's unittest or pytest) that notes, for each
function of the repository, how many failing and how many passing tests called it. The
functions the failing tests ran that the briefing missed join the suspects, ranked by the
Ochiai score of spectrum-based fault localisation (called by every failing test and by no
passing one is likeliest); a briefing suspect no failing test called cannot hold the bug
and goes last.
"""

from __future__ import annotations

import json
import math
import re
import shlex
from collections.abc import Callable

from agent.context.tags import extract_tags
from agent.repair.suspects import MAX_SUSPECT_LINES, MAX_SUSPECTS, Suspect
from sandbox.frozen import frozen

_MARKER = "KILN-CALLS "
_MODULE_COMMAND = re.compile(r"^(python3?(?:\.\d+)?)\s+-m\s+(unittest|pytest)\b(.*)$")

# Runs in the sandbox's own Python: `python3 -c TRACER FAILING MODULE ARGS...`. For each
# call of a function under the working directory made while a test runs, the test (the
# nearest frame named test*) is noted once.
TRACER = r"""
import json, os, runpy, sys
root = os.getcwd() + os.sep
failing, module = set(json.loads(sys.argv[1])), sys.argv[2]
sys.argv = [module, *sys.argv[3:]]
sys.path.insert(0, os.getcwd())
callers, ran = {}, set()

def test_of(frame):
    while frame is not None:
        code = frame.f_code
        if code.co_name.startswith("test"):
            return getattr(code, "co_qualname", code.co_name)
        frame = frame.f_back
    return None

def tracer(frame, event, arg):
    code = frame.f_code
    if event == "call" and code.co_filename.startswith(root) and code.co_name.isidentifier():
        test = test_of(frame.f_back)
        if test is not None:
            key = (code.co_filename[len(root):], code.co_name, code.co_firstlineno)
            callers.setdefault(key, set()).add(test)
            ran.add(test)
    return None

sys.settrace(tracer)
try:
    runpy.run_module(module, run_name="__main__", alter_sys=True)
except SystemExit:
    pass
finally:
    sys.settrace(None)
    def failed(test):
        return any(test == f or test.endswith("." + f) or f.endswith("." + test) for f in failing)
    bad = {t for t in ran if failed(t)}
    rows = [[*k, len(t & bad), len(t - bad)] for k, t in callers.items() if t & bad]
    sys.stdout.flush()
    os.write(1, ("\n__MARKER__" + json.dumps({"failed": len(bad), "calls": rows}) + "\n").encode())
""".replace("__MARKER__", _MARKER)


@frozen
class Called:
    """A function of the repository and how many failing and passing tests called it."""

    path: str
    name: str
    line: int
    failed: int
    passed: int

    def score(self, failing: int) -> float:
        """Ochiai: 1.0 when every failing test and no passing one called it."""
        if not failing or not self.failed:
            return 0.0
        return self.failed / math.sqrt(failing * (self.failed + self.passed))


def coverage_command(test_command: str, failing: tuple[str, ...]) -> str:
    """The test command run under the tracer, or "" when it cannot be (not Python's
    unittest or pytest, or no failing test named)."""
    matched = _MODULE_COMMAND.match(test_command.strip())
    tests = sorted({name for name in map(failing_test_id, failing) if name})
    if not matched or not tests:
        return ""
    python, module, rest = matched.groups()
    return shlex.join([python, "-c", TRACER, json.dumps(tests), module]) + rest


def parse_coverage(output: str) -> tuple[int, list[Called]]:
    """How many failing tests the tracer saw, and each function's callers; (0, []) when
    the tracer said nothing usable."""
    line = next((ln for ln in reversed(output.split("\n")) if ln.startswith(_MARKER)), "")
    try:
        found = json.loads(line[len(_MARKER) :]) if line else {}
        rows = [
            Called(str(p), str(n), int(ln), int(f), int(s)) for p, n, ln, f, s in found["calls"]
        ]
        return int(found["failed"]), rows
    except (json.JSONDecodeError, KeyError, TypeError, ValueError):
        return 0, []


def ranked(
    static: list[Suspect],
    failing: int,
    called: list[Called],
    texts: dict[str, str],
    is_test: Callable[[str], bool],
) -> list[Suspect]:
    """The briefing's suspects a failing test called, in their order (what the failure
    names first); then the other functions the failing tests ran, by Ochiai score and
    first call; then the briefing's suspects no failing test called. `static` as it was
    when the tracer saw no failing test."""
    if not failing:
        return static
    ran = {(c.path, c.name) for c in called if c.failed}
    found = [c for c in called if c.failed and not is_test(c.path)]
    found.sort(key=lambda c: -c.score(failing))  # stable: the first called first among equals
    picked = [s for s in static if (s.path, s.name) in ran]
    for call in found:
        if not any((s.path, s.name) == (call.path, call.name) for s in picked):
            suspect = _definition(call, texts.get(call.path, ""))
            if suspect is not None:
                picked.append(suspect)
    picked += [s for s in static if s not in picked]
    return picked[:MAX_SUSPECTS]


def failing_test_id(failing: str) -> str:
    """`Class.test_x` (or `test_x`) from a digest's name: unittest's `test_x
    (pkg.mod.Class.test_x)` or pytest's `tests/t.py::Class::test_x[1]`."""
    head, _, where = failing.partition(" ")
    if where:  # unittest: the last two parts of the dotted path
        dotted = where.strip("()").split(".")
        if dotted[-1] != head:
            dotted.append(head)
        return ".".join(dotted[-2:])
    parts = re.sub(r"\[.*$", "", head).split("::")[1:]
    return ".".join(parts[-2:])


def _definition(call: Called, text: str) -> Suspect | None:
    """The function the tracer saw, as a suspect: its definition at that line (or a few
    below it: a decorated function's code starts at its first decorator)."""
    for tag in extract_tags(call.path, text.encode()):
        near = call.line <= tag.line <= call.line + 5
        short = tag.end_line - tag.line < MAX_SUSPECT_LINES
        if (
            tag.kind == "def"
            and tag.name == call.name
            and tag.def_kind != "class"
            and near
            and short
        ):
            lines = text.split("\n")[tag.line - 1 : tag.end_line]
            return Suspect(call.path, call.name, tag.line, tag.end_line, "\n".join(lines))
    return None
