"""Must hold, through `kiln run --approval full-auto --apply` on the real sandbox with a
scripted model: a link into .git or out of the repository never reaches the working tree
whatever git had to quote in its name, and the changed files are named as they are; a file
over 50 MB never reaches it either, even one that was small at an earlier checkpoint, and
kiln neither holds it in memory nor keeps it in its store."""

from __future__ import annotations

import os
import resource
from pathlib import Path

import pytest

from tests.conftest import make_git_repo
from tests.e2e.test_host_protection import FINISH, FIX, kiln_run, outputs_of, run
from tests.e2e.test_refused_apply import CALC, TESTS

MB = 1 << 20


def links_in(repo: Path) -> list[str]:
    return [
        os.path.relpath(os.path.join(top, name), repo)
        for top, dirs, files in os.walk(repo)
        for name in dirs + files
        if os.path.islink(os.path.join(top, name))
    ]


def test_oddly_named_links_out_or_into_git_are_refused_and_named(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})
    hooks_before = sorted(os.listdir(repo / ".git" / "hooks"))
    make_links = run("ln -s .git/hooks 'q\"x' && ln -s ../.. \"$(printf 't\\tab')\"")

    events, code = kiln_run(repo, [FIX, make_links, FINISH], "--apply")

    result = events[-1]
    assert result["type"] == "result" and result["applied"] == []
    assert code != 0 and "Nothing was written" in result["not_applied"]
    assert "a link into .git" in result["not_applied"]
    assert sorted(result["files_changed"]) == sorted(["calc.py", 'q"x', "t\tab"])
    assert links_in(repo) == []
    assert "return a - b" in (repo / "calc.py").read_text()  # all or nothing
    assert sorted(os.listdir(repo / ".git" / "hooks")) == hooks_before
    assert sorted(os.listdir(tmp_path)) == ["repo"]  # nothing written beside the repository


def tree_size(root: Path) -> int:
    return sum(
        os.lstat(os.path.join(top, name)).st_size
        for top, _, files in os.walk(root)
        for name in files
    )


def test_a_file_that_grew_past_the_limit_is_not_applied_held_or_stored(
    docker_ready: None, tmp_path: Path
) -> None:
    files = {"calc.py": CALC, "test_calc.py": TESTS, "data.bin": "the person's\n"}
    repo = make_git_repo(tmp_path / "repo", files)
    small_first = run("echo small > grow.bin")  # kiln's checkpoint after it tracks grow.bin
    grown = run(
        "head -c 200M /dev/urandom > grow.bin && cp grow.bin data.bin && echo v2 > other.txt"
    )
    store = Path(os.environ["XDG_DATA_HOME"])  # tests/conftest.py's, this test's own

    events, code = kiln_run(repo, [FIX, small_first, grown, FINISH], "--apply")

    peak_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    print(f"kiln's peak memory {peak_rss / MB:.0f} MB, store {tree_size(store) / MB:.1f} MB")
    told = outputs_of(events, "run")[-1]
    assert "over 50 MB, so kiln leaves it out" in told and "grow.bin" in told
    result = events[-1]
    assert code == 0 and result["status"] == "done"
    assert sorted(result["applied"]) == ["calc.py", "other.txt"]
    assert "grow.bin" not in result["files_changed"] and "data.bin" not in result["files_changed"]
    assert not (repo / "grow.bin").exists()
    assert (repo / "data.bin").read_text() == "the person's\n"
    assert tree_size(repo) < 10 * MB
    assert peak_rss < 400 * MB
    assert tree_size(store) < 20 * MB


DELETE_ALL = run("find . -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +")


@pytest.mark.parametrize(
    "turns",
    [[FIX, DELETE_ALL], [DELETE_ALL]],
    ids=["after-a-fix", "first-thing"],  # judged against a run in the loop, or the baseline
)
def test_deleting_the_tests_is_not_passing(
    docker_ready: None, tmp_path: Path, turns: list[dict[str, object]]
) -> None:
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})

    events, code = kiln_run(repo, [*turns, *[FINISH] * 6], "--apply")

    told = [e["output"] for e in events if e["type"] == "tool_call_finished"]
    assert any("no tests ran, where 1 ran before" in output for output in told)
    result = events[-1]
    assert result["status"] != "done" and code != 0
    assert result["tests_after"]["passed"] == 0 and result["applied"] == []
    assert (repo / "test_calc.py").read_text() == TESTS and (repo / "calc.py").exists()
