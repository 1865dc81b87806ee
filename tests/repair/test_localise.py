"""Must hold: the functions the failing tests ran join the suspects, ranked by how
strongly the failing tests alone ran them; a briefing suspect no failing test ran goes
last; without a trace, the briefing's order stands."""

from __future__ import annotations

from pathlib import Path

from agent.events import CandidateKind, CandidatesTried
from agent.prompts.briefing import is_test_file
from agent.repair.localise import Called, coverage_command, failing_test_id, parse_coverage, ranked
from agent.repair.suspects import Suspect
from tests.conftest import make_git_repo
from tests.repair.test_rewrites import _run, block

# kiln's own candidates: a one-token variant, or part of a rewrite that failed whole
KILNS_OWN = (CandidateKind.VARIANT, CandidateKind.PART_OF_REWRITE)


def test_a_failing_tests_id_is_its_class_and_name() -> None:
    assert failing_test_id("test_sum (tests.test_cart.CartTest.test_sum)") == "CartTest.test_sum"
    assert (
        failing_test_id("test_sum (tests.test_cart.CartTest)") == "CartTest.test_sum"
    )  # Python 3.10
    assert failing_test_id("tests/test_cart.py::CartTest::test_sum[2-3]") == "CartTest.test_sum"
    assert failing_test_id("tests/test_cart.py::test_sum") == "test_sum"


def test_only_python_test_modules_are_traced() -> None:
    failing = ("test_sum (tests.test_cart.CartTest.test_sum)",)
    command = coverage_command("python3 -m pytest -q -rfE", failing)
    assert command.startswith("python3 -c ") and command.endswith(" pytest -q -rfE")
    assert '["CartTest.test_sum"]' in command
    assert coverage_command("npm test --silent", failing) == ""
    assert coverage_command("python3 -m unittest", ()) == ""


def test_what_the_tracer_says_is_read_and_nonsense_is_not() -> None:
    output = 'x\nKILN-CALLS {"failed": 2, "calls": [["m.py", "f", 3, 2, 0]]}\n'
    assert parse_coverage(output) == (2, [Called("m.py", "f", 3, 2, 0)])
    assert parse_coverage("KILN-CALLS {not json") == (0, [])
    assert parse_coverage("the tests ran, no tracer") == (0, [])


def test_the_failing_tests_own_functions_rank_after_what_the_briefing_found() -> None:
    text = "def a(x):\n    return b(x)\n\n\ndef b(x):\n    return c(x)\n\n\ndef c(x):\n    return x - 1\n"
    a, b = (
        Suspect("m.py", "a", 1, 2, "def a(x):\n    return b(x)"),
        Suspect("m.py", "b", 5, 6, "def b(x):\n    return c(x)"),
    )
    unrun = Suspect("n.py", "never", 1, 2, "def never():\n    return 0")
    called = [
        Called("m.py", "a", 1, 2, 0),
        Called("tests/test_m.py", "helper", 9, 2, 0),  # a test's own helper: never a suspect
        Called("m.py", "shared", 12, 1, 5),  # run by passing tests too: less likely
        Called("m.py", "c", 9, 2, 0),
        Called("m.py", "b", 5, 2, 1),
    ]
    texts = {"m.py": text + "\n\ndef shared():\n    return 1\n"}
    picked = ranked([a, unrun, b], 2, called, texts, is_test_file)
    assert [s.name for s in picked] == ["a", "b", "c", "shared", "never"]
    assert picked[2] == Suspect("m.py", "c", 9, 10, "def c(x):\n    return x - 1")
    assert ranked([a, unrun, b], 0, [], texts, is_test_file) == [a, unrun, b]
    assert [s.name for s in ranked([], 2, called, texts, is_test_file)] == ["a", "c", "b", "shared"]


# The test calls `invoice`, which calls `line_total`, which calls `with_tax`: the bug sits
# two calls from the test, beyond what reading the test finds.
FILES = {
    "shop/__init__.py": "from shop.invoice import invoice\n",
    "shop/invoice.py": (
        "from shop.lines import line_total\n\n\n"
        "def invoice(lines):\n    return sum(line_total(line) for line in lines)\n"
    ),
    "shop/lines.py": (
        "from shop.tax import with_tax\n\n\n"
        "def line_total(line):\n    return with_tax(line[0] * line[1])\n"
    ),
    "shop/tax.py": "RATE = 10\n\n\ndef with_tax(cents):\n    return cents * (100 - RATE) // 100\n",
    "tests/__init__.py": "",
    "tests/test_invoice.py": (
        "import unittest\n\nfrom shop import invoice\n\n\n"
        "class InvoiceTest(unittest.TestCase):\n"
        "    def test_one_line(self):\n        self.assertEqual(invoice([(100, 2)]), 220)\n\n"
        "    def test_empty(self):\n        self.assertEqual(invoice([]), 0)\n"
    ),
}


async def test_a_bug_two_calls_from_the_test_is_found_by_running_it(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = make_git_repo(tmp_path / "repo", FILES)
    unchanged = [
        block("def invoice(lines):\n    return sum(line_total(line) for line in lines)\n"),
        block("def line_total(line):\n    return with_tax(line[0] * line[1])\n"),
        block("def with_tax(cents):\n    return cents * (100 - RATE) // 100\n"),
    ]
    events, diff, requests = await _run(repo, unchanged * 3)
    [tried] = [e for e in events if isinstance(e, CandidatesTried)]
    assert tried.passing == 1 and tried.how in KILNS_OWN, tried
    assert "in with_tax (shop/tax.py)" in tried.chosen
    assert "+    return cents * (100 + RATE) // 100" in diff
    asked = [r.body["messages"][-1]["content"] for r in requests]
    assert any("`with_tax` (shop/tax.py, lines 4-5)" in a for a in asked)  # the model too
