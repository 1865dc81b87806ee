"""Must hold: two candidate modules that pass different tests are crossed one definition
at a time, methods included, and a cross that passes them all ends the run without
another request to the model."""

from __future__ import annotations

from pathlib import Path

from agent.events import CandidatesTried, Notice
from agent.repair.crossover import crosses, definitions
from tests.conftest import make_git_repo
from tests.repair.test_rewrites import _run, block

STUB = "def first(xs):\n    pass\n\n\ndef last(xs):\n    pass\n"
TESTS = (
    "import unittest\n\nfrom ends import first, last\n\n\n"
    "class EndsTest(unittest.TestCase):\n"
    "    def test_first(self):\n        self.assertEqual(first([1, 2, 3]), 1)\n\n"
    "    def test_last(self):\n        self.assertEqual(last([1, 2, 3]), 3)\n"
)
FIRST_RIGHT = "def first(xs):\n    return xs[0]\n\n\ndef last(xs):\n    return xs[0]\n"
LAST_RIGHT = "def first(xs):\n    return xs[-1]\n\n\ndef last(xs):\n    return xs[-1]\n"


def test_definitions_are_functions_and_methods_with_their_decorators() -> None:
    source = (
        "import math\n\n\n@cache\ndef area(r):\n    return math.pi * r * r\n\n\n"
        "class Circle:\n    unit = 'm'\n\n    @property\n    def size(self):\n        return 1\n"
    )
    assert definitions(source) == {"area": (4, 6), "Circle.size": (12, 14)}
    assert definitions("def broken(:\n") == {}


def test_each_differing_definition_of_the_donor_makes_one_cross() -> None:
    best = "class Pair:\n    def left(self):\n        return 1\n\n    def right(self):\n        return 1\n"
    donor = "class Pair:\n    def left(self):\n        return 1\n\n    def right(self):\n        return 2"
    # `left` is the same in both: only `right` is crossed (the donor's last line unended).
    assert crosses(best, donor) == [("Pair.right", best.replace("return 1\n", "return 2\n", 2)
                                     .replace("return 2\n", "return 1\n", 1))]  # fmt: skip
    # A donor whose definition only parses at its own depth makes no cross.
    assert crosses("def f():\n    return 1\n", "if x:\n  def f():\n    return 2\n") == []


async def test_candidates_that_pass_different_tests_are_crossed_into_one_that_passes(
    docker_ready: None, tmp_path: Path
) -> None:
    files = {".docs/instructions.md": "# Ends\n\nThe first and the last item of a list.\n",
             "ends.py": STUB, "ends_test.py": TESTS}  # fmt: skip
    repo = make_git_repo(tmp_path / "repo", files)
    events, diff, requests = await _run(
        repo, [block(FIRST_RIGHT), block(LAST_RIGHT)], task="Implement ends.py."
    )
    assert events[-1].status == "done"
    assert "+    return xs[0]" in diff and "+    return xs[-1]" in diff
    assert len(requests) == 2  # the passing module came from the tests, not a third request
    [tried] = [e for e in events if isinstance(e, CandidatesTried)]
    assert tried.passing == 1 and tried.tried == 4  # two samples, then B's first, B's last
    assert any(isinstance(e, Notice) and "last taken from another candidate" in e.message
               for e in events)  # fmt: skip
