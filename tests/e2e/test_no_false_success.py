"""What a request asks decides when `kiln run` is done: a change must change something, a
question is answered. The installed `kiln` as a subprocess, the scripted model over real
HTTP, the real Docker sandbox, repositories whose tests pass before the run starts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent.errors import ExitCode
from agent.llm.scripted.server import ScriptedServer
from agent.run.checks import NOTHING_CHANGED
from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import kiln

pytestmark = pytest.mark.usefixtures("docker_ready")

CONFIG_REPO = {
    "config.py": (
        "def load_config(text):\n"
        "    pairs = (line.split('=', 1) for line in text.splitlines() if line.strip())\n"
        "    return {key.strip(): value.strip() for key, value in pairs}\n"
    ),
    "test_config.py": (
        "import unittest\n\nfrom config import load_config\n\n\n"
        "class TestLoad(unittest.TestCase):\n"
        "    def test_pairs(self):\n"
        "        self.assertEqual(load_config('a = 1'), {'a': '1'})\n"
    ),
    "README.md": "# tinyconf\n\nReads key = value configuration files into a dict.\n",
}
FEATURE = "make load_config support comments: lines starting with # are ignored"
CLAIM = {"name": "finish", "arguments": {"summary": "Added comments to load_config."}}
SUPPORT_COMMENTS = {
    "name": "edit_file",
    "arguments": {
        "path": "config.py",
        "old_text": "if line.strip())",
        "new_text": "if line.strip() and not line.lstrip().startswith('#'))",
    },
}


def run_json(repo: Path, server: ScriptedServer, task: str, *extra: str) -> tuple[int, Any]:
    done = kiln(
        "run", task, "--repo", str(repo), "--base-url", server.base_url, "--model", "scripted",
        "--approval", "full-auto", *extra,
    )  # fmt: skip
    if "stream-json" in extra:
        return done.returncode, [json.loads(line) for line in done.stdout.splitlines()]
    return done.returncode, json.loads(done.stdout)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_git_repo(tmp_path / "repo", CONFIG_REPO)


def test_finishing_a_feature_request_with_nothing_changed_is_refused_then_fails(
    repo: Path,
) -> None:
    # The model claims the feature four times and never edits: max_finish_refusals is 3.
    search = {"name": "search", "arguments": {"pattern": "def load_config"}}
    script = [{"tool_calls": [search]}] + [{"tool_calls": [CLAIM]}] * 4
    with ScriptedServer(script) as server:
        code, result = run_json(repo, server, FEATURE, "--output-format", "json")
        last = server.chat_requests[-1].body["messages"]  # the whole conversation so far
        told = [m["content"] for m in last if m["role"] == "tool"]
    assert code == 1
    assert result["status"] == "failed" and result["stop_reason"] == "nothing_changed"
    assert result["files_changed"] == [] and result["shape"] == "change"
    assert result["evidence"] == ""  # a run that did not finish shows nothing
    assert "Nothing changed" in result["summary"] and "Added comments" in result["summary"]
    # Each finish before the last was answered with the reason, not "Finished."
    assert told[1:] == [NOTHING_CHANGED] * 3
    assert (repo / "config.py").read_text() == CONFIG_REPO["config.py"]


def test_a_refused_finish_then_a_change_no_test_shows_ends_unverified_and_unapplied(
    repo: Path,
) -> None:
    script = [
        {"tool_calls": [CLAIM]},
        {"tool_calls": [SUPPORT_COMMENTS]},
        {"tool_calls": [CLAIM]},
    ]
    with ScriptedServer(script) as server:
        code, result = run_json(repo, server, FEATURE, "--output-format", "json", "--apply")
    assert code == ExitCode.UNVERIFIED, result
    assert result["status"] == "unverified" and result["files_changed"] == ["config.py"]
    # The only tests there passed before the run: they show nothing about the change.
    assert result["tests_before"]["ok"] and result["tests_after"]["ok"]
    assert "passed before the change too" in result["evidence"]
    assert result["summary"].startswith("Added comments to load_config.")
    assert result["applied"] == []  # --apply writes `done` only
    assert (repo / "config.py").read_text() == CONFIG_REPO["config.py"]


def test_a_question_is_answered_with_no_change_and_no_test_run(repo: Path) -> None:
    answer = "tinyconf reads key = value files into a dict. load_config does the parsing."
    script = [
        {"tool_calls": [{"name": "read_file", "arguments": {"path": "README.md"}}]},
        {"tool_calls": [{"name": "finish", "arguments": {"summary": answer}}]},
    ]
    question = "What does this project do? Answer in two sentences."
    with ScriptedServer(script) as server:
        code, lines = run_json(repo, server, question, "--output-format", "stream-json")
        first = server.chat_requests[0].body["messages"]
    assert code == 0
    kinds = [line["type"] for line in lines]
    assert kinds[0] == "session_started" and kinds[1] == "task_shaped"
    assert lines[1]["shape"] == "question"
    assert "tests_ran" not in kinds  # nothing asked kiln to run them
    result = lines[-1]
    assert result["status"] == "answered" and result["exit_code"] == 0
    assert result["summary"] == answer  # the answer is the result, not a test digest
    assert result["tests_after"] is None and result["files_changed"] == []
    assert result["evidence"].startswith("A question")
    # The model was told to answer, in the request that carried the question.
    assert "this request is a question" in first[-1]["content"]


def test_a_question_answered_in_plain_text_ends_answered_with_that_answer(repo: Path) -> None:
    answer = "load_config is defined in config.py."
    with ScriptedServer([{"text": answer}]) as server:
        code, result = run_json(
            repo, server, "where is load_config defined?", "--output-format", "json"
        )
    assert code == 0 and result["stop_reason"] == "done" and result["status"] == "answered"
    assert result["summary"] == answer and result["shape"] == "question"
