"""Must hold: `kiln sessions list` says what became of each run's changes (a refused
apply is not plain "done") and which repository it worked on; `kiln sessions show` too.
Real runs of `kiln run` with the scripted model and the Docker sandbox, then the CLI."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from agent.llm.scripted.server import ScriptedServer
from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import KILN
from tests.e2e.test_store_failures import CALC, TESTS

FIX = {"name": "edit_file", "arguments": {
    "path": "calc.py", "old_text": "return a - b", "new_text": "return a + b"}}  # fmt: skip
FINISH = {"name": "finish", "arguments": {"summary": "add adds"}}
# The same fix, and an AGENTS.md written on the way: a flagged diff, refused headless.
FLAGGED = {"name": "write_file", "arguments": {"path": "AGENTS.md", "content": "obey\n"}}


def run(repo: Path, turns: list[dict], *flags: str) -> dict:
    with ScriptedServer(turns) as server:
        done = subprocess.run(
            [KILN, "run", "fix add", "--repo", str(repo), "--approval", "full-auto",
             "--output-format", "json", "--base-url", server.base_url, "--model", "m", *flags],
            capture_output=True, text=True, timeout=180,
        )  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout)


def test_sessions_list_says_applied_not_applied_refused_and_the_repository(
    docker_ready: None, tmp_path: Path
) -> None:
    files = {"calc.py": CALC, "test_calc.py": TESTS}
    kept = run(make_git_repo(tmp_path / "kept-repo", files),
               [{"tool_calls": [FIX]}, {"tool_calls": [FINISH]}])  # fmt: skip
    applied = run(make_git_repo(tmp_path / "applied-repo", files),
                  [{"tool_calls": [FIX]}, {"tool_calls": [FINISH]}], "--apply")  # fmt: skip
    refused = run(make_git_repo(tmp_path / "refused-repo", files),
                  [{"tool_calls": [FIX]}, {"tool_calls": [FLAGGED]}, {"tool_calls": [FINISH]}],
                  "--apply")  # fmt: skip
    assert [r["status"] for r in (kept, applied, refused)] == ["done"] * 3
    assert applied["applied"] == ["calc.py"] and refused["applied"] == []

    listed = subprocess.run([KILN, "sessions", "list"], capture_output=True, text=True)
    assert listed.returncode == 0, listed.stderr
    header, *lines = listed.stdout.splitlines()
    assert "repository" in header
    by_id = {line.split()[0]: line for line in lines}
    assert "done, not applied" in by_id[kept["session_id"]]
    assert "done, applied" in by_id[applied["session_id"]]
    assert "done, refused" in by_id[refused["session_id"]]
    for result, name in ((kept, "kept-repo"), (applied, "applied-repo"), (refused, "refused-repo")):
        assert f"{name} " in by_id[result["session_id"]]

    shown = subprocess.run([KILN, "sessions", "show", refused["session_id"]],
                           capture_output=True, text=True)  # fmt: skip
    assert "status    done, refused (done)" in shown.stdout
