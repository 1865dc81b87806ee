"""A change that leaves a file not parsing is never applied as if it were fine (issue 43):
a scripted model writes a new module with a syntax error, or breaks an existing one, and
finishes; `kiln run --apply` writes nothing and says why, the person's tree untouched. A
file that did not parse before and still does not is not the change's fault."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import make_git_repo
from tests.e2e.test_host_code import kiln_events, turns, write
from tests.e2e.test_refused_apply import CALC, TESTS

WORKING = CALC.replace("return a - b\n\n\ndef sub", "return a + b\n\n\ndef sub")  # tests pass

pytestmark = pytest.mark.usefixtures("docker_ready")

BROKEN = "def area(w, h)\n    return w * h\n"  # the colon is missing
# The model finishes again when kiln's syntax check sends it back: it insists.
FINISH = {"name": "finish", "arguments": {"summary": "done"}}


def test_a_new_file_that_does_not_parse_is_never_applied(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", {"calc.py": WORKING, "test_calc.py": TESTS})
    # Not done (it does not parse), and even --apply-unverified does not write it: the
    # flag asks for --apply-flagged as well.
    script = turns(write("shapes.py", BROKEN), FINISH)
    events = kiln_events(repo, script, "--apply", "--apply-unverified")
    result = events[-1]
    assert result["status"] == "unverified" and "shapes.py does not parse" in result["evidence"]
    assert result["applied"] == [] and not (repo / "shapes.py").exists()
    refused = " ".join(d["what"] for d in result["denied"])
    assert "shapes.py not parsing" in refused and result["exit"] != 0, result


def test_an_edit_that_breaks_a_file_is_never_applied(tmp_path: Path) -> None:
    report = "def total(xs):\n    return sum(xs)\n"  # no test imports it: they still pass
    repo = make_git_repo(
        tmp_path / "repo", {"calc.py": WORKING, "test_calc.py": TESTS, "report.py": report}
    )
    edit = {"name": "edit_file", "arguments": {"path": "report.py", "old_text": "def total(xs):",
            "new_text": "def total(xs)"}}  # fmt: skip
    events = kiln_events(repo, turns(edit, FINISH), "--apply")
    assert events[-1]["applied"] == [] and (repo / "report.py").read_text() == report
    assert events[-1]["status"] == "unverified", events[-1]
    assert events[-1]["evidence"].startswith("report.py does not parse"), events[-1]


def test_a_file_broken_before_the_change_does_not_stop_it(tmp_path: Path) -> None:
    repo = make_git_repo(
        tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS, "draft.py": BROKEN}
    )
    fix = {"name": "edit_file", "arguments": {"path": "calc.py", "old_text": "return a - b\n\n\ndef sub",
           "new_text": "return a + b\n\n\ndef sub"}}  # fmt: skip
    note = write("draft.py", BROKEN + "# still a draft\n")
    events = kiln_events(repo, turns(fix, note), "--apply")
    assert sorted(events[-1]["applied"]) == ["calc.py", "draft.py"], events[-1]
