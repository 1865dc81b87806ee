"""What `kiln run` is given: the repository from any directory inside it, the task from a
file or standard input, and a patch file it can write, each checked before anything runs."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from agent.errors import UsageError
from agent.llm.scripted.server import ScriptedServer
from agent.settings.repo import find_repo
from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import KILN, SIX_STEP_FIX


def test_the_repository_is_found_from_inside_it(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", {"pkg/mod.py": "x = 1\n"})
    assert find_repo(str(repo / "pkg")) == repo.resolve()
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    with pytest.raises(UsageError, match=r"bare git repository.*clone it first"):
        find_repo(str(bare))
    with pytest.raises(UsageError, match="not inside a git repository"):
        find_repo(str(tmp_path))


def _kiln(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([KILN, *args], input=stdin, capture_output=True, text=True, timeout=120)


def test_bad_input_stops_before_the_run_in_one_sentence(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", {"calc.py": "x = 1\n"})
    model = ["--base-url", "http://127.0.0.1:9/v1", "--model", "m"]
    for args, said in [
        (["fix", "--repo", str(repo), "--patch-out", str(tmp_path / "no" / "such.patch")],
         "--patch-out"),
        (["--repo", str(repo), "--task-file", str(tmp_path / "missing.txt")], "task file"),
        (["-", "--repo", str(repo)], "The task is empty"),
    ]:  # fmt: skip
        done = _kiln("run", *args, *model)
        assert done.returncode == 2, (args, done.stderr)
        assert said in done.stderr and done.stderr.count("\n") == 1, done.stderr


def test_the_task_from_a_file_or_stdin(docker_ready: None, tmp_path: Path) -> None:
    repo = make_git_repo(
        tmp_path / "repo",
        {
            "calc.py": "def add(a, b):\n    return a - b\n",
            "test_calc.py": (
                "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n"
                "    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n"
            ),
        },
    )
    long_task = "make the failing test pass. " + "Context: " + "x" * 200_000
    task_file = tmp_path / "task.txt"
    task_file.write_text(long_task)
    for how, stdin in ((["--task-file", str(task_file)], ""), (["-"], long_task)):
        with ScriptedServer(SIX_STEP_FIX) as server:
            model = ["--base-url", server.base_url, "--model", "scripted-model"]
            done = _kiln("run", *how, "--repo", str(repo / "."), *model, stdin=stdin)
            assert done.returncode == 0, done.stderr
            first = server.chat_requests[0].body["messages"][1]["content"]
            assert first.startswith("make the failing test pass.") and len(first) > 200_000


def test_a_run_that_ends_while_starting_still_prints_its_result_and_is_stored(
    tmp_path: Path,
) -> None:
    repo = make_git_repo(tmp_path / "repo", {"calc.py": "x = 1\n"})
    done = _kiln(
        "run", "fix", "--repo", str(repo), "--output-format", "json",
        "--base-url", "http://127.0.0.1:9/v1", "--model", "m",
    )  # fmt: skip
    assert done.returncode == 6 and done.stderr.count("\n") == 1, done.stderr
    result = json.loads(done.stdout)
    assert result["type"] == "result" and result["status"] == "error"
    assert result["stop_reason"] == "model_error" and result["exit_code"] == 6
    assert "Nothing answers" in result["summary"] and result["applied"] == []
    listed = _kiln("sessions", "list").stdout
    row = next(line for line in listed.splitlines() if line.startswith(result["session_id"]))
    assert " error " in row
