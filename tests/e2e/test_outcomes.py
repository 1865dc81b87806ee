"""`done` is a claim to the person: a change ends `done` only with evidence that fits the
request (agent/run/evidence.py), else `unverified` (exit 8), which `kiln run --apply` does
not write without --apply-unverified. The installed `kiln` as a subprocess, the scripted
model over real HTTP, the real Docker sandbox, real git repositories."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agent.errors import ExitCode
from agent.llm.scripted.server import ScriptedServer
from tests.conftest import make_git_repo
from tests.e2e.test_no_false_success import CONFIG_REPO, FEATURE, SUPPORT_COMMENTS, run_json

pytestmark = pytest.mark.usefixtures("docker_ready")

COMMENT_TEST = (
    "import unittest\n\nfrom config import load_config\n\n\n"
    "class TestComments(unittest.TestCase):\n"
    "    def test_comment_lines_are_ignored(self):\n"
    "        self.assertEqual(load_config('# note\\na = 1'), {'a': '1'})\n"
)
# A test that passes on the code before the change as well: it shows nothing.
PASSING_ANYWAY = (
    "import unittest\n\nfrom config import load_config\n\n\n"
    "class TestMore(unittest.TestCase):\n"
    "    def test_two_pairs(self):\n"
    "        self.assertEqual(load_config('a = 1\\nb = 2'), {'a': '1', 'b': '2'})\n"
)


def _write(path: str, content: str) -> dict[str, Any]:
    return {"name": "write_file", "arguments": {"path": path, "content": content}}


def _finish(summary: str = "Done.") -> dict[str, Any]:
    return {"tool_calls": [{"name": "finish", "arguments": {"summary": summary}}]}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_git_repo(tmp_path / "repo", CONFIG_REPO)


def test_a_fix_with_a_new_test_that_failed_before_is_done_and_applied(repo: Path) -> None:
    script = [
        {"tool_calls": [_write("test_comments.py", COMMENT_TEST)]},
        {"tool_calls": [SUPPORT_COMMENTS]},
        _finish("Comment lines are skipped now."),
    ]
    with ScriptedServer(script) as server:
        code, result = run_json(repo, server, FEATURE, "--output-format", "json", "--apply")
    assert code == ExitCode.OK, result
    assert result["status"] == "done"
    assert "fail on the code as it was" in result["evidence"]
    assert "test_comment_lines_are_ignored" in result["evidence"]
    # kiln's check ran the new test on the old code and put the workspace back: the
    # diff holds the test and the fix, and both reached the working tree.
    assert sorted(result["files_changed"]) == ["config.py", "test_comments.py"]
    assert sorted(result["applied"]) == ["config.py", "test_comments.py"]
    assert "startswith('#')" in (repo / "config.py").read_text()


def test_a_new_test_that_passes_on_the_old_code_too_leaves_it_unverified(repo: Path) -> None:
    script = [
        {"tool_calls": [_write("test_more.py", PASSING_ANYWAY), SUPPORT_COMMENTS]},
        _finish(),
    ]
    with ScriptedServer(script) as server:
        code, result = run_json(repo, server, FEATURE, "--output-format", "json", "--apply")
    assert code == ExitCode.UNVERIFIED, result
    assert result["status"] == "unverified" and result["applied"] == []
    assert (
        "test_more.py" in result["evidence"] and "pass on the code as it was" in result["evidence"]
    )
    assert not (repo / "test_more.py").exists()


def test_apply_unverified_writes_it_and_the_exit_code_still_says_unverified(
    repo: Path,
) -> None:
    script = [{"tool_calls": [SUPPORT_COMMENTS]}, _finish()]
    with ScriptedServer(script) as server:
        code, result = run_json(
            repo, server, FEATURE, "--output-format", "json", "--apply", "--apply-unverified"
        )
    assert code == ExitCode.UNVERIFIED, result
    assert result["applied"] == ["config.py"]


def test_a_failing_test_of_the_repository_that_passes_after_is_the_evidence(
    tmp_path: Path,
) -> None:
    repo = make_git_repo(tmp_path / "repo", {**CONFIG_REPO, "test_comments.py": COMMENT_TEST})
    script = [{"tool_calls": [SUPPORT_COMMENTS]}, _finish()]
    with ScriptedServer(script) as server:
        code, result = run_json(repo, server, FEATURE, "--output-format", "json")
    assert code == ExitCode.OK, result
    assert result["status"] == "done"
    assert "failed before the change and passes now" in result["evidence"]
    assert "test_comment_lines_are_ignored" in result["evidence"]


def test_a_rename_is_done_when_the_tests_pass_before_and_after(repo: Path) -> None:
    rename = "rename load_config to read_config everywhere"
    test_file = CONFIG_REPO["test_config.py"].replace("load_config", "read_config")
    config = CONFIG_REPO["config.py"].replace("load_config", "read_config")
    script = [
        {"tool_calls": [_write("config.py", config), _write("test_config.py", test_file)]},
        _finish("Renamed."),
    ]
    with ScriptedServer(script) as server:
        code, result = run_json(repo, server, rename, "--output-format", "json")
    assert code == ExitCode.OK, result
    assert result["status"] == "done"
    assert "passed before the change and pass after it" in result["evidence"]


def test_only_a_test_written_for_a_bug_report_is_unverified(repo: Path) -> None:
    report = "load_config('# note\\na = 1') raises ValueError instead of skipping the comment"
    script = [{"tool_calls": [_write("test_more.py", PASSING_ANYWAY)]}, _finish()]
    with ScriptedServer(script) as server:
        code, result = run_json(repo, server, report, "--output-format", "json")
    assert code == ExitCode.UNVERIFIED, result
    assert result["evidence"].startswith("Only tests changed")


def test_a_summary_saying_nothing_was_needed_over_a_diff_is_not_shown(repo: Path) -> None:
    script = [{"tool_calls": [SUPPORT_COMMENTS]}, _finish("Tests passed, no changes needed.")]
    with ScriptedServer(script) as server:
        _, result = run_json(repo, server, FEATURE, "--output-format", "json")
    assert "no changes needed" not in result["summary"].split("(")[0]
    assert result["summary"].startswith("Changed config.py.")


def test_a_new_module_nothing_imports_is_named_in_the_result(repo: Path) -> None:
    stray = _write("tinyconf.py", "def load_config(text):\n    return {}\n")
    script = [{"tool_calls": [stray, SUPPORT_COMMENTS]}, _finish()]
    with ScriptedServer(script) as server:
        _, result = run_json(repo, server, FEATURE, "--output-format", "json")
    assert "New tinyconf.py: nothing in the repository imports or tests it." in result["evidence"]
