"""Must hold: before a small model's first request on failing tests, kiln asks it to rewrite
the functions the failing tests lead to, one at a time (those the failure names first);
a rewrite that makes the tests pass ends the run done, and when none does the workspace
is as it was and the usual loop goes on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agent.context.retrieval import Found
from agent.events import CandidateKind, CandidatesTried, Finished
from agent.llm.scripted.server import ScriptedServer
from agent.present import candidates_line
from agent.prompts.rewrite import evidence, rewritten
from agent.repair.imports import stdlib_imports_added
from agent.repair.suspects import Suspect, suspects
from tests.conftest import make_git_repo
from tests.scripted import small_model_session

# The usual layout: the package re-exports; the tested function is right, what it calls is
# not, and in a way no one-token variant of kiln's own fixes: only a rewrite does.
PACKAGE = {
    "shapes/__init__.py": "from shapes.ops import quadruple\n\n__all__ = ['quadruple']\n",
    "shapes/ops.py": (
        "def double(x):\n    return x + x + x\n\n\ndef quadruple(x):\n    return double(double(x))\n"
    ),
    "tests/__init__.py": "",
    "tests/test_ops.py": (
        "import unittest\n\nfrom shapes import quadruple\n\n\n"
        "class QuadrupleTest(unittest.TestCase):\n"
        "    def test_quadruple(self):\n        self.assertEqual(quadruple(2), 8)\n"
    ),
}


def block(code: str) -> dict[str, Any]:
    return {"text": f"```python\n{code}```\n"}


async def _run(
    repo: Path, script: list[dict[str, Any]], task: str = "The tests fail. Fix the bug."
) -> tuple[list[Any], str, list[Any]]:
    with ScriptedServer(script) as server:
        async with small_model_session(repo, server) as session:
            events = [e async for e in session.run(task)]
            diff = await session.diff()
        return events, diff, list(server.chat_requests)


async def test_a_rewrite_that_passes_ends_the_run(docker_ready: None, tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", PACKAGE)
    script = [
        block("def quadruple(x):\n    return double(x) * 2\n"),  # named in the failure: first
        block("def double(x):\n    return x * 2\n"),
    ]
    events, diff, requests = await _run(repo, script)
    [tried] = [e for e in events if isinstance(e, CandidatesTried)]
    assert (tried.tried, tried.passing) == (2, 1)
    assert tried.chosen == "rewrote double in shapes/ops.py"
    assert tried.how is CandidateKind.REWRITE
    finished = events[-1]
    assert isinstance(finished, Finished) and finished.status == "done"
    assert "-    return x + x + x\n+    return x * 2" in diff and "double(x) * 2" not in diff
    # Each rewrite shows the one function last, its lines named; the likeliest reply first.
    asks = [r.body["messages"][-1]["content"] for r in requests]
    assert "`quadruple` (shapes/ops.py, lines 5-6)" in asks[0]
    assert "`double` (shapes/ops.py, lines 1-2)" in asks[1]
    assert "```python\ndef double(x):\n    return x + x + x\n```" in asks[1]
    assert [r.body.get("temperature") for r in requests] == [0.0, 0.0]
    assert len(requests) == 2  # done: the agent loop never needed a request


async def test_failing_rewrites_are_undone_before_the_loop(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = make_git_repo(tmp_path / "repo", PACKAGE)
    wrong = block("def double(x):\n    return x * 4\n")
    fix = {"tool_calls": [{"name": "edit_file", "arguments": {
        "path": "shapes/ops.py", "old_text": "x + x + x", "new_text": "x + x"}}]}  # fmt: skip
    finish = {"tool_calls": [{"name": "finish", "arguments": {"summary": "double doubles"}}]}
    # The sampled replies (2 x 3 candidates, less the 2 greedy ones) rewrite another
    # function than the one asked for, or repeat one: not tried.
    script = [block("def quadruple(x):\n    return x\n"), wrong, *[wrong] * 4, fix, finish]
    events, diff, requests = await _run(repo, script)
    [tried] = [e for e in events if isinstance(e, CandidatesTried)]
    # Two rewrites, then the parts of double's (`x + 4`; `x * x + x` is a variant too),
    # then kiln's 26 variants: 6 of quadruple's line, 4 of double's, 7 empty-case guards
    # of each, then the rarer `*` for `+` twice in double.
    assert (tried.tried, tried.passing, tried.chosen) == (29, 0, "")
    assert candidates_line(tried) == "Tried 29 fixes: 0 pass; none kept, the model goes on."
    assert events[-1].status == "done"
    # The model's own edit applied to the code as it was: no rewrite is left in the diff.
    assert "+    return x + x" in diff and "x * 4" not in diff and "return x\n" not in diff
    assert requests[6].body.get("tools")  # the loop's own request, with the tools


SUSPECT = Suspect("bank/base.py", "available", 29, 30, "    def available(self):\n        return 1")


@pytest.mark.parametrize(
    "reply",
    [
        "```python\n    def available(self):\n        return 2\n```",
        "```python\ndef available(self):\n    return 2\n```\nThis fixes it.",
        "Here:\n```python\n@dataclass\nclass Account:\n    x: int = 0\n\n"
        "    def available(self):\n        return 2\n\n    def other(self):\n        pass\n```",
        "def available(self):\n    return 2\n",
    ],
)
def test_a_rewrite_is_the_one_function_indented_as_the_original(reply: str) -> None:
    assert rewritten(reply, SUSPECT) == "    def available(self):\n        return 2"


@pytest.mark.parametrize(
    "reply",
    [
        "```python\ndef other(self):\n    return 2\n```",  # not the function asked for
        "```python\n    def available(self):\n        return 1\n```",  # unchanged
        "I cannot see the bug.",
    ],
)
def test_a_reply_without_a_new_version_of_the_function_is_none(reply: str) -> None:
    assert rewritten(reply, SUSPECT) is None


def test_suspects_are_functions_the_failure_names_first() -> None:
    texts = {"m.py": "class A:\n    def f(self):\n        return g()\n\ndef g():\n    return 1\n"}
    found = [
        Found("m.py", "A", 1, 3, 0, "class"),
        Found("m.py", "f", 2, 3, 0, "method"),
        Found("m.py", "g", 5, 6, 1, "function"),
    ]
    picked = suspects(found, texts, "AssertionError: g() returned 1")
    assert [(s.name, s.text) for s in picked] == [
        ("g", "def g():\n    return 1"),
        ("f", "    def f(self):\n        return g()"),
    ]


UNITTEST_FAILURE = """Tests FAILED: 2 passed, 2 failed, 0 errors  (`python3 -m unittest`)

FAIL: test_env_wins (tests.test_loader.LoaderTest.test_env_wins)
  File "/workspace/tests/test_loader.py", line 31, in test_env_wins
    self.assertEqual(settings["port"], 9100)
AssertionError: 9000 != 9100
FAIL: test_unknown (tests.test_loader.LoaderTest.test_unknown)
  File "/workspace/tests/test_loader.py", line 36, in test_unknown
    self.assertEqual(from_env({"APP_WORKERS": "4"}), {"workers": 4})
AssertionError: {} != {'workers': 4}"""


def test_the_evidence_is_the_failing_lines_that_use_the_function() -> None:
    assert evidence(UNITTEST_FAILURE, "from_env") == (
        'self.assertEqual(from_env({"APP_WORKERS": "4"}), {"workers": 4})\n'
        "AssertionError: {} != {'workers': 4}"
    )
    # A function no failing line names: the lines before each error message.
    assert evidence(UNITTEST_FAILURE, "parse").split("\n") == [
        'self.assertEqual(settings["port"], 9100)',
        "AssertionError: 9000 != 9100",
        'self.assertEqual(from_env({"APP_WORKERS": "4"}), {"workers": 4})',
        "AssertionError: {} != {'workers': 4}",
    ]


# node's TAP output quotes no source line: kiln reads the one its stack points at.
JS_PACKAGE = {
    "src/price.js": (
        "'use strict';\n\nfunction discount(cents, percent) {\n  return Math.round(cents * percent);\n}\n\n"
        "function total(cents, percent) {\n  return cents - discount(cents, percent);\n}\n\n"
        "function round(cents) {\n  return Math.round(cents);\n}\n\n"
        "module.exports = { total, discount, round };\n"
    ),
    "test/price.test.js": (
        "'use strict';\nconst test = require('node:test');\n"
        "const assert = require('node:assert/strict');\n"
        "const { total, round } = require('../src/price');\n\n"
        "test('no discount keeps the price', () => {\n  assert.equal(total(1000, 0), 1000);\n});\n\n"
        # `round` comes first in the failing test, but the failing line calls `total`.
        "test('ten percent off', () => {\n  const cents = round(1000);\n"
        "  assert.equal(total(cents, 10), 900);\n});\n"
    ),
}


async def test_javascript_under_node_test_the_callee_of_the_failing_call(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = make_git_repo(tmp_path / "repo", JS_PACKAGE)
    script = [
        {"text": "```javascript\nfunction total(cents, percent) {\n  return cents - percent;\n}\n```"},
        {"text": "```javascript\nfunction discount(cents, percent) {\n"
                 "  return Math.round((cents * percent) / 100);\n}\n```"},
    ]  # fmt: skip
    events, diff, requests = await _run(repo, script, "The tests fail (`node --test`). Fix it.")
    [tried] = [e for e in events if isinstance(e, CandidatesTried)]
    assert (tried.tried, tried.chosen) == (2, "rewrote discount in src/price.js")
    assert events[-1].status == "done"
    assert "+  return Math.round((cents * percent) / 100);" in diff
    asks = [r.body["messages"][-1]["content"] for r in requests]
    assert "`total` (src/price.js, lines 7-9)" in asks[0]
    assert "The tests fail here:\n```\nassert.equal(total(cents, 10), 900);" in asks[0]
    assert "```javascript\nfunction discount(cents, percent) {" in asks[1]


async def test_a_standard_library_name_the_rewrite_uses_is_imported(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = make_git_repo(
        tmp_path / "repo",
        {
            "money.py": 'from decimal import ROUND_HALF_EVEN, Decimal\n\nPENNY = Decimal("0.01")\n\n\n'
            "def round_money(amount):\n"
            "    return Decimal(amount).quantize(PENNY, rounding=ROUND_HALF_EVEN)\n",
            "test_money.py": "import unittest\nfrom decimal import Decimal\n\nfrom money import round_money\n\n\n"
            "class T(unittest.TestCase):\n    def test_half_up(self):\n"
            '        self.assertEqual(round_money("0.125"), Decimal("0.13"))\n',
        },
    )
    script = [block("def round_money(amount):\n"
                    "    return Decimal(amount).quantize(PENNY, rounding=ROUND_HALF_UP)\n")]  # fmt: skip
    events, diff, _ = await _run(repo, script)
    assert events[-1].status == "done"
    assert "+from decimal import ROUND_HALF_EVEN, Decimal, ROUND_HALF_UP" in diff


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from decimal import Decimal as D\n\nx = D(1).quantize(1, ROUND_UP)\n",
         ("from decimal import Decimal as D", "from decimal import Decimal as D, ROUND_UP")),
        ("from decimal import Decimal\n\ndef f(ROUND_UP):\n    return ROUND_UP\n", None),  # bound
        ("from mypkg import thing\n\nx = other\n", None),  # not the standard library
        ("from decimal import (Decimal,)\n\nx = ROUND_UP\n", None),  # parenthesised: left alone
        ("def broken(:\n", None),
    ],
)  # fmt: skip
def test_stdlib_imports_added(source: str, expected: tuple[str, str] | None) -> None:
    assert stdlib_imports_added(source) == expected


async def test_kiln_s_own_candidates_ask_no_language_server(
    docker_ready: None, tmp_path: Path
) -> None:
    """The tests judge the repair engine's candidates: no language server starts for them
    (each check would cost a small model's many candidates time on the cores its server
    decodes on)."""
    repo = make_git_repo(tmp_path / "repo", PACKAGE)
    script = [
        block("def quadruple(x):\n    return double(x) * 2\n"),  # named in the failure: first
        block("def double(x):\n    return x * 2\n"),
    ]
    with ScriptedServer(script) as server:
        async with small_model_session(repo, server) as session:
            events = [e async for e in session.run("The tests fail. Fix the bug.")]
            assert session.sandbox is not None
            listed = await session.sandbox.exec("ps -eo args | grep -c '[p]yright' || true")
    [finished] = [e for e in events if isinstance(e, Finished)]
    assert finished.status == "done"
    assert listed.output.strip() == "0"
