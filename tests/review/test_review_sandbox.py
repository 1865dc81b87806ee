"""`kiln review --run-tests` and `--fix`: the tests at the reviewed commit run in the real
Docker sandbox, and the findings become the agent's task there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.llm.scripted.server import ScriptedServer
from tests.review.test_review import finding, finish, review, verified
from tests.vcs.conftest import commit_file

pytestmark = pytest.mark.usefixtures("docker_ready")

TESTS = "from shop import total\n\n\ndef test_total():\n    assert total([1, 2, 3]) == 6\n"


@pytest.fixture
def tested_repo(buggy_repo: Path) -> Path:
    """The broken total() and a test that catches it, committed with it."""
    commit_file(buggy_repo, "test_shop.py", TESTS, "a test for total")
    return buggy_repo


def test_run_tests_adds_the_result_at_the_reviewed_commit(tested_repo: Path) -> None:
    turns = [{"tool_calls": [finding(0)]}, {"tool_calls": [finish()]}, verified()]
    with ScriptedServer(turns) as server:
        done = review(tested_repo, server, "HEAD~1..HEAD", "--run-tests", "--output-format", "json")
    assert done.returncode == 0, done.stderr
    tests = json.loads(done.stdout)["tests"]
    assert tests["failed"] == 1 and tests["passed"] == 0 and not tests["ok"]
    assert "pytest" in tests["command"]
    # At the first commit the function was right, and the same test (not there yet) is absent.
    with ScriptedServer([{"tool_calls": [finish("correct")]}]) as server:
        first = review(tested_repo, server, "HEAD~2", "--run-tests", "--output-format", "json")
    assert first.returncode == 0, first.stderr
    assert (
        json.loads(first.stdout)["tests"] is None
        or json.loads(first.stdout)["tests"]["failed"] == 0
    )


def test_fix_hands_the_findings_to_the_agent(tested_repo: Path) -> None:
    edit = {
        "name": "edit_file",
        "arguments": {"path": "shop.py", "old_text": "prices[1:]:", "new_text": "prices:"},
    }
    turns = [
        {"tool_calls": [finding(0)]}, {"tool_calls": [finish()]}, verified(),
        {"tool_calls": [edit]},
        {"tool_calls": [{"name": "finish", "arguments": {"summary": "total() sums all."}}]},
    ]  # fmt: skip
    with ScriptedServer(turns) as server:
        done = review(tested_repo, server, "HEAD~1", "--fix", "--output-format", "json")
        task = server.chat_requests[3].body["messages"][1]["content"]
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["findings"][0]["priority"] == 0  # stdout: the review alone
    assert "1. [P0] shop.py:4: total() skips the first price." in task
    assert "done (done)" in done.stderr and "1 passed" in done.stderr
    assert "prices[1:]" in (tested_repo / "shop.py").read_text()  # the fix waits for kiln apply
