"""A refused `--apply` loses nothing: the result is printed, the changes are kept, and
`kiln apply SESSION --3way` lands them later."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from agent.llm.scripted.server import ScriptedServer
from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import KILN

CALC = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n"
TESTS = (
    "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n"
    "    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n"
)
TURNS = [
    {"tool_calls": [{"name": "edit_file", "arguments": {
        "path": "calc.py", "old_text": "def add(a, b):\n    return a - b",
        "new_text": "def add(a, b):\n    return a + b"}}]},
    {"tool_calls": [{"name": "run", "arguments": {"command": "sleep 3"}}]},
    {"tool_calls": [{"name": "finish", "arguments": {"summary": "add adds"}}]},
]  # fmt: skip


def test_a_refused_apply_keeps_the_changes_and_kiln_apply_lands_them(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})
    with ScriptedServer(TURNS) as server:
        run = subprocess.Popen(
            [KILN, "run", "fix add", "--repo", str(repo), "--apply", "--approval", "full-auto",
             "--output-format", "stream-json", "--base-url", server.base_url, "--model", "m"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert run.stdout is not None
        lines = []
        for line in run.stdout:
            lines.append(json.loads(line))
            if lines[-1]["type"] == "tool_call_started" and lines[-1]["name"] == "run":
                # While the sandbox sleeps, the person edits the same file and commits.
                (repo / "calc.py").write_text(
                    CALC.replace("a - b\n\n\ndef sub", "a - b\n\n\n# mine\ndef sub")
                )
                subprocess.run(["git", "-C", str(repo), "commit", "-qam", "mine"], check=True,
                               env={**os.environ, "GIT_AUTHOR_NAME": "p", "GIT_AUTHOR_EMAIL": "p@e",
                                    "GIT_COMMITTER_NAME": "p", "GIT_COMMITTER_EMAIL": "p@e"})  # fmt: skip
        _, stderr = run.communicate(timeout=120)
    result = lines[-1]
    assert result["type"] == "result" and result["status"] == "done"
    assert run.returncode == 1 and result["applied"] == []
    assert "changed in" in result["not_applied"] and "kiln apply" in stderr
    assert "# mine" in (repo / "calc.py").read_text()  # the person's edit stands
    assert "a + b" not in (repo / "calc.py").read_text()  # nothing written over it

    later = subprocess.run(
        [KILN, "apply", result["session_id"], "--3way"], capture_output=True, text=True, timeout=60
    )
    assert later.returncode == 0, later.stderr
    merged = (repo / "calc.py").read_text()
    assert "return a + b" in merged and "# mine" in merged
