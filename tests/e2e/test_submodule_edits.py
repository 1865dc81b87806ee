"""Must hold, through `kiln run` on the real sandbox: an edit the model makes inside a git
submodule is never dropped without a word. kiln does not apply it (only the superproject's
diff is applied); the result names the submodule, a Notice says so in one sentence, and
the submodule's diff is kept as a patch that applies there."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.conftest import make_git_repo
from tests.e2e.test_host_code import FIX, kiln_events, turns, write
from tests.e2e.test_refused_apply import CALC, TESTS
from tests.vcs.conftest import GIT_ENV


def with_submodule(tmp_path: Path) -> Path:
    library = make_git_repo(tmp_path / "library", {"lib.txt": "library v1\n"})
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})
    git = ["git", "-c", "protocol.file.allow=always"]
    subprocess.run([*git, "submodule", "add", "-q", str(library), "sub"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-qm", "submodule"], cwd=repo, check=True, env=GIT_ENV | {
        "PATH": "/usr/bin:/bin"})  # fmt: skip
    return repo


def test_an_edit_inside_a_submodule_is_named_and_kept_not_dropped(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = with_submodule(tmp_path)
    events = kiln_events(repo, turns(FIX, write("sub/lib.txt", "library v2\n")), "--apply")
    result = events[-1]
    assert result["applied"] == ["calc.py"]  # the superproject's change lands
    assert (repo / "sub" / "lib.txt").read_text() == "library v1\n"  # the submodule's does not
    ((named),) = result["submodules"]
    assert named["path"] == "sub"
    said = [e["message"] for e in events if e["type"] == "notice" and "submodule" in e["message"]]
    assert len(said) == 1 and "does not apply changes inside submodules" in said[0]
    assert named["patch"] in said[0]
    subprocess.run(["git", "-C", str(repo / "sub"), "apply", named["patch"]], check=True)
    assert (repo / "sub" / "lib.txt").read_text() == "library v2\n"


def test_a_run_that_leaves_the_submodules_alone_names_none(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = with_submodule(tmp_path)
    result = kiln_events(repo, turns(FIX), "--apply")[-1]
    assert result["applied"] == ["calc.py"] and result["submodules"] == []
