"""Must hold, through `kiln run` on the real sandbox: a change to a file that is not UTF-8 (a
Latin-1 source) reaches the repository, --patch-out, the store and `kiln undo` byte for
byte, and nothing on the way ends in a traceback."""

from __future__ import annotations

import subprocess
from pathlib import Path

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
