"""Must hold, through `kiln run` on the real sandbox: a change to a file that is not UTF-8 (a
Latin-1 source) reaches the repository, --patch-out, the store and `kiln undo` byte for
byte, and nothing on the way ends in a traceback."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from agent.llm.scripted.server import ScriptedServer
from tests.conftest import make_git_repo
from tests.e2e.test_host_code import FIX, kiln_run, turns
from tests.e2e.test_kiln_run import KILN
from tests.e2e.test_refused_apply import CALC, TESTS

BEFORE, AFTER = b"caf\xe9\n", b"caf\xe9 au lait\n"


def test_a_latin1_file_changes_byte_for_byte(docker_ready: None, tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})
    (repo / "old.txt").write_bytes(BEFORE)
    subprocess.run(["git", "add", "old.txt"], cwd=repo, check=True)
    subprocess.run(["git", "commit", "-qm", "latin-1"], cwd=repo, check=True)
    rewrite = {"name": "run", "arguments": {"command": r"printf 'caf\351 au lait\n' > old.txt"}}
    patch = tmp_path / "out.patch"

    result, code = kiln_run(repo, turns(FIX, rewrite), "--apply", "--patch-out", str(patch))
    assert code == 0 and sorted(result["applied"]) == ["calc.py", "old.txt"]
    assert (repo / "old.txt").read_bytes() == AFTER
    assert b"\n-caf\xe9\n+caf\xe9 au lait\n" in patch.read_bytes()

    shown = subprocess.run(
        [KILN, "sessions", "show", result["session_id"]], capture_output=True, text=True
    )
    assert shown.returncode == 0 and "Traceback" not in shown.stderr
    undone = subprocess.run([KILN, "undo", "--repo", str(repo)], capture_output=True, text=True)
    assert undone.returncode == 0, undone.stderr
    assert (repo / "old.txt").read_bytes() == BEFORE


def test_a_flagged_apply_of_a_big_latin1_change_ends_in_its_json_result(
    docker_ready: None, tmp_path: Path
) -> None:
    # The apply's question carries the whole diff into the store; a Latin-1 file of 90 KB
    # in it once ended the run in a traceback, with no result for the script that ran it.
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})
    big = {
        "name": "run",
        "arguments": {"command": r"printf 'caf\351 au lait\n%.0s' $(seq 6000) > big.txt"},
    }
    rules = {"name": "write_file", "arguments": {"path": "AGENTS.md", "content": "Be kind.\n"}}
    with ScriptedServer(turns(FIX, big, rules)) as server:
        done = subprocess.run(
            [KILN, "run", "fix add", "--repo", str(repo), "--approval", "full-auto", "--apply",
             "--output-format", "json", "--base-url", server.base_url, "--model", "m"],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    result = json.loads(done.stdout)
    assert done.returncode == 1 and result["applied"] == []
    assert "--apply-flagged" in result["not_applied"]
    assert not (repo / "big.txt").exists()
    later = subprocess.run(
        [KILN, "apply", result["session_id"], "--yes"], capture_output=True, text=True, timeout=120
    )
    assert later.returncode == 0, later.stderr
    assert (repo / "big.txt").read_bytes() == b"caf\xe9 au lait\n" * 6000
