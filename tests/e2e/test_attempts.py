"""`kiln run --attempts N` (agent/headless/attempts.py): N independent attempts at one task,
each a whole run in a sandbox of its own; the one with evidence is kept and only its diff
applied. The installed `kiln`, the scripted model over real HTTP, the real Docker sandbox."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from agent.llm.scripted.server import ScriptedServer
from agent.settings import paths
from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import KILN

pytestmark = pytest.mark.usefixtures("docker_ready")

CALC = "def add(a, b):\n    return a - b\n"
TESTS = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"


def attempt(new_text: str) -> dict[str, Any]:
    """One attempt in one reply: an edit of add's body, then finish."""
    edit = {
        "name": "edit_file",
        "arguments": {"path": "calc.py", "old_text": "return a - b", "new_text": new_text},
    }
    return {"tool_calls": [edit, {"name": "finish", "arguments": {"summary": new_text}}]}  # fmt: skip


def test_the_attempt_with_evidence_is_kept_and_only_its_diff_applied(tmp_path: Path) -> None:
    paths.user_config_file().parent.mkdir(parents=True, exist_ok=True)
    paths.user_config_file().write_text(
        "[agents]\nmax_parallel = 1\n"
    )  # in order: turn k, attempt k
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})
    tries = ["return a * b", "return b - a", "return a + b", "return b * a"]  # the third is right
    script = [attempt(text) for text in tries]
    with ScriptedServer(script) as server:
        done = subprocess.run(
            [KILN, "run", "fix add", "--repo", str(repo), "--base-url", server.base_url,
             "--model", "m", "--approval", "full-auto", "--max-steps", "1", "--attempts", "4",
             "--apply", "--output-format", "json"],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    result = json.loads(done.stdout)
    statuses = [a["status"] for a in result["attempts"]]
    assert statuses == ["limit", "limit", "done", "limit"], statuses
    assert result["attempt"] == 3 and result["status"] == "done" and done.returncode == 0
    assert result["applied"] == ["calc.py"]
    assert (repo / "calc.py").read_text() == "def add(a, b):\n    return a + b\n"
    assert len({a["session_id"] for a in result["attempts"]}) == 4  # four runs of their own
    assert all(a["usage"]["output_tokens"] > 0 for a in result["attempts"])


def test_attempts_is_refused_out_of_range(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC})
    done = subprocess.run(
        [KILN, "run", "fix add", "--repo", str(repo), "--attempts", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "--attempts takes 1 to 16" in done.stderr


def test_a_batch_line_takes_attempts_and_keeps_the_one_with_evidence(tmp_path: Path) -> None:
    paths.user_config_file().parent.mkdir(parents=True, exist_ok=True)
    paths.user_config_file().write_text("[agents]\nmax_parallel = 1\n")
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})
    script = [attempt("return a * b"), attempt("return a + b")]
    with ScriptedServer(script) as server:
        line = {"id": "fix-add", "repo": str(repo), "task": "fix add", "attempts": 2,
                "max_steps": 1, "model": {"base_url": server.base_url, "model": "m"}}  # fmt: skip
        tasks = tmp_path / "tasks.jsonl"
        tasks.write_text(json.dumps(line) + "\n")
        done = subprocess.run(
            [KILN, "batch", str(tasks), "--out", str(tmp_path / "out")],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    record = json.loads((tmp_path / "out" / "results.jsonl").read_text())
    assert record["status"] == "solved"
    patch = next((tmp_path / "out").rglob("*.patch")).read_text()
    assert "+    return a + b" in patch and "a * b" not in patch
