"""Must hold: `--patch-out` that cannot be written is refused before the run in one
sentence (/proc passes a permission check, root passes every one); one that fails only
when written after the run (/dev/full) is one sentence, the JSON result is printed all the
same, and the diff is kept in a patch file the result names."""

from __future__ import annotations

import json
from pathlib import Path

from agent.llm.scripted.server import ScriptedServer
from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import kiln
from tests.e2e.test_store_failures import CALC, TESTS, TURNS


def test_a_patch_out_that_cannot_be_created_is_refused_before_the_run(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})
    # No model server: a run that started would end in another error than this one.
    done = kiln("run", "fix add", "--repo", str(repo), "--base-url", "http://127.0.0.1:9",
                "--patch-out", "/proc/x.patch", "--output-format", "json")  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("kiln: --patch-out /proc/x.patch cannot be written (")
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_a_patch_out_failing_after_the_run_still_prints_the_result(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})
    with ScriptedServer(TURNS) as server:
        done = kiln("run", "fix add", "--repo", str(repo), "--base-url", server.base_url,
                    "--model", "m", "--patch-out", "/dev/full", "--output-format", "json")  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == "done" and done.returncode == 0
    assert result["patch_out"] is None
    kept = Path(result["patch_kept"])
    assert "+    return a + b" in kept.read_text()
    said = [line for line in done.stderr.splitlines() if "--patch-out" in line]
    assert said == [
        "kiln: --patch-out /dev/full could not be written after the run (No space left on "
        f"device). The diff is kept in {kept}."
    ]
