"""Must hold: a small model's request with no failing test gets a test written from the
person's words first; kept only when it fails on the code as it is, seen failing, then
passing once the change is made, and part of the diff."""

from __future__ import annotations

from pathlib import Path

from agent import events as kiln_events
from agent.events import Finished, Notice
from agent.prompts.reproduce import relevant_files, reply_test_file
from agent.repair.reproduce import alone_command, new_test_path, own_mistake, style_example
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
    # The evidence: kiln's reproduction failed on the code as it was and passes now.
    assert "test_calc_requested" in finished.evidence and "failed before" in finished.evidence
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


# A test that fails on its own mistake: it uses a name it never imported.
OWN_MISTAKE_TEST = NEW_TEST.replace("from calc import mul\n", "from calc import add\n")


async def test_a_test_that_fails_on_its_own_mistake_is_dropped_and_the_style_is_a_real_test(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = make_git_repo(tmp_path / "repo", {
        "calc.py": CALC, "tests/__init__.py": "", "tests/test_calc.py": TESTS,
    })  # fmt: skip
    script = [block(OWN_MISTAKE_TEST), block(NEW_TEST), ADD_MUL, FINISH]
    events, diff, requests = await _run(repo, script, task=TASK)
    asked = "\n".join(m["content"] or "" for m in requests[0].body["messages"])
    assert "An existing test, for its style (tests/test_calc.py)" in asked  # not __init__.py
    notes = [e.message for e in events if isinstance(e, Notice)]
    assert any("kiln wrote tests/test_calc_requested.py" in n for n in notes)
    assert "+from calc import mul" in diff and "+def mul(a, b):" in diff  # the second, kept
    finished = events[-1]
    assert isinstance(finished, Finished) and finished.status == "done"


def test_the_style_example_is_the_real_test_nearest_the_code() -> None:
    texts = {
        "tests/__init__.py": "",
        "tests/conftest.py": "import pytest\n@pytest.fixture\ndef x(): ...\n",
        "tests/test_other.py": "def test_other():\n    assert True\n" * 20,
        "tests/test_calc.py": TESTS,
    }
    assert style_example(texts, ["calc.py"]) == ("tests/test_calc.py", TESTS)
    assert style_example({"tests/__init__.py": ""}, ["calc.py"]) is None
    # not named after the code: the longest real test file
    assert style_example(texts, ["io.py"])[0] == "tests/test_other.py"  # type: ignore[index]


def test_a_failure_is_the_tests_own_unless_the_request_names_it() -> None:
    assert not own_mistake("ImportError: cannot import name 'mul' from 'calc'", TASK)
    assert own_mistake("NameError: name 'mul' is not defined", TASK)
    assert own_mistake("ModuleNotFoundError: No module named 'pytest'", TASK)
    assert own_mistake("E       fixture 'tmp_dir' not found", TASK)
    assert not own_mistake("AssertionError: 5 != 6", TASK)
    assert not own_mistake("NameError: name 'x' is not defined", "parse raises NameError")


def test_a_candidate_test_runs_alone_with_the_projects_runner() -> None:
    path = "tests/test_calc_requested.py"
    assert alone_command("python3 -m pytest -q", path) == f"python3 -m pytest -q {path}"
    assert alone_command("pytest", path) == f"pytest {path}"
    unittest = alone_command("python3 -m unittest discover -s tests", path)
    assert unittest == f"python3 -m unittest {path}"
    assert alone_command("make test", path) == ""  # the whole run judges it then
