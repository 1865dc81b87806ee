"""Must hold: a small model's request with no failing test gets a test written from the
person's words first; kept only when it fails on the code as it is, seen failing, then
passing once the change is made, and part of the diff."""

from __future__ import annotations

from pathlib import Path

from agent import events as kiln_events
from agent.events import Finished, Notice
from agent.prompts.reproduce import relevant_files, reply_test_file
from agent.repair.reproduce import new_test_path
from tests.conftest import make_git_repo
from tests.repair.test_rewrites import _run, block

CALC = "def add(a, b):\n    return a + b\n"
TESTS = (
    "import unittest\n\nfrom calc import add\n\n\n"
    "class AddTest(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n"
)
TASK = "Add a mul(a, b) function to calc.py that multiplies two numbers."
NEW_TEST = (
    "import unittest\n\nfrom calc import mul\n\n\n"
    "class MulTest(unittest.TestCase):\n    def test_mul(self):\n        self.assertEqual(mul(2, 3), 6)\n"
)
PASSING_TEST = NEW_TEST.replace("mul", "add").replace("6)", "5)")
ADD_MUL = {"tool_calls": [{"name": "edit_file", "arguments": {
    "path": "calc.py", "old_text": "    return a + b\n",
    "new_text": "    return a + b\n\n\ndef mul(a, b):\n    return a * b\n"}}]}  # fmt: skip
FINISH = {"tool_calls": [{"name": "finish", "arguments": {"summary": "added mul"}}]}


async def test_a_request_without_a_failing_test_gets_one_first(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})
    # The first reply's test passes already (it checks nothing asked for): not kept.
    script = [block(PASSING_TEST), block(NEW_TEST), ADD_MUL, FINISH]
    events, diff, requests = await _run(repo, script, task=TASK)
    notes = [e.message for e in events if isinstance(e, Notice)]
    assert any("kiln wrote test_calc_requested.py" in n for n in notes)
    runs = [e for e in events if isinstance(e, kiln_events.TestsRan)]
    assert (
        runs[0].failed + runs[0].errors and not runs[-1].failed + runs[-1].errors
    )  # seen failing, then passing
    assert any("test_calc_requested" in name for name in runs[0].failing)
    finished = events[-1]
    assert isinstance(finished, Finished) and finished.status == "done"
    assert "+++ b/test_calc_requested.py" in diff and "+def mul(a, b):" in diff
    assert all(TASK in "\n".join(m["content"] or "" for m in r.body["messages"]) for r in requests)


def test_where_the_new_test_goes_and_what_it_is_about() -> None:
    assert new_test_path(["tests/test_calc.py"], ["calc.py"]) == "tests/test_calc_requested.py"
    taken = ["test_calc.py", "test_calc_requested.py"]
    assert new_test_path(taken, ["calc.py"]) == "test_calc_requested2.py"
    texts = {"io.py": "def load_config(path): ...", "calc.py": "def add(a, b): ..."}
    assert relevant_files("make load_config support comments", texts, most=1) == ["io.py"]
    assert reply_test_file("no code here") is None
    assert reply_test_file(f"```python\n{NEW_TEST}```") == NEW_TEST
