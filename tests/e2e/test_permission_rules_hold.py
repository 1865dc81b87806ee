"""Permission rules hold for the result, end to end: the installed `kiln run` in full-auto,
a scripted hostile model over real HTTP, the real Docker sandbox. Each of the eight ways
around a `run:` deny rule the probe found is refused and nothing of its line runs; a file
an `edit:` deny rule guards, changed by `sed -i` in `run`, is not applied (nor by `kiln
apply` later); a path an `edit:` ask rule names flags the diff."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from agent.llm.scripted.server import ScriptedServer
from agent.settings import paths
from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import kiln
from tests.e2e.test_permission_rules_run import run_json, tool_replies
from tests.test_permissions import BYPASSES

pytestmark = pytest.mark.usefixtures("docker_ready")

STATS_REPO = {
    "stats/__init__.py": "",
    "stats/core.py": "def total(a, b):\n    return a - b\n",
    "test_core.py": (
        "import unittest\n\nfrom stats.core import total\n\n\n"
        "class TestTotal(unittest.TestCase):\n"
        "    def test_total(self):\n        self.assertEqual(total(2, 3), 5)\n"
    ),
}
SED = {"name": "run", "arguments": {"command": "sed -i 's/a - b/a + b/' stats/core.py"}}
TESTS = {"name": "run_tests", "arguments": {}}
DONE = {"name": "finish", "arguments": {"summary": "total() now adds."}}


def config(text: str) -> Path:
    path = paths.user_config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("[permissions]\n" + text)
    return path


def call(command: str) -> dict[str, Any]:
    return {"tool_calls": [{"name": "run", "arguments": {"command": command}}]}


def test_each_way_around_a_run_deny_rule_is_refused_and_nothing_of_it_runs(
    tmp_path: Path,
) -> None:
    rules = config('deny = ["run: git push*"]\n')
    repo = make_git_repo(tmp_path / "repo", STATS_REPO)
    # Each line first leaves a marker: had any part of it run, the marker would be in the
    # workspace (and so in the diff), and `ls` would find it.
    lines = [f"touch ran_{i} && {bypass}" for i, bypass in enumerate(BYPASSES)]
    script = [call(line) for line in lines] + [call("ls ran_*"), {"tool_calls": [DONE]}]
    with ScriptedServer(script) as server:
        code, result, _ = run_json(repo, server, "What does git push say here? Try it every way.")
        told = tool_replies(server)
    refusal = f"Refused by the person's rule deny `run: git push*` ({rules})"
    assert [reply.startswith(refusal) for reply in told[: len(lines)]] == [True] * len(lines)
    assert "No such file" in told[len(lines)]
    assert result["files_changed"] == []
    why = f"deny `run: git push*` ({rules})"
    assert result["denied"] == [
        {"tool": "run", "what": f"run `{line}`", "why": why} for line in lines
    ]
    assert code == result["exit_code"] == 7


def test_sed_on_an_edit_denied_file_is_not_applied_now_or_later(tmp_path: Path) -> None:
    rules = config('deny = ["edit: stats/core.py"]\n')
    repo = make_git_repo(tmp_path / "repo", STATS_REPO)
    before = (repo / "stats/core.py").read_bytes()
    edit = {
        "name": "edit_file",
        "arguments": {"path": "./stats/core.py", "old_text": "a - b", "new_text": "a + b"},
    }
    script = [{"tool_calls": [edit]}, {"tool_calls": [SED]}, {"tool_calls": [TESTS]}]
    with ScriptedServer([*script, {"tool_calls": [DONE]}]) as server:
        done, result = run_apply(repo, server)
    session = result["session_id"]
    sentence = (
        "Not applied: the diff changes stats/core.py, which the rule deny "
        f"`edit: stats/core.py` ({rules}) forbids; the changes are kept: change that rule, "
        f"then run `kiln apply {session}`."
    )
    assert result["files_changed"] == ["stats/core.py"] and result["tests_after"]["ok"]
    assert result["not_applied"] == sentence and result["applied"] == []
    assert [d["tool"] for d in result["denied"]] == ["edit_file", "apply"]
    assert result["denied"][1]["why"] == f"deny `edit: stats/core.py` ({rules})"
    assert done.returncode == result["exit_code"] == 1  # the README's refused --apply
    assert f"kiln: {sentence}" in done.stderr and "Traceback" not in done.stderr
    assert (repo / "stats/core.py").read_bytes() == before
    later = kiln("apply", session, "--yes")
    assert later.returncode == 1 and sentence in later.stderr and "Traceback" not in later.stderr
    assert (repo / "stats/core.py").read_bytes() == before


def test_a_path_an_edit_ask_rule_names_flags_the_diff(tmp_path: Path) -> None:
    rules = config('ask = ["edit: stats/**"]\n')
    repo = make_git_repo(tmp_path / "repo", STATS_REPO)
    before = (repo / "stats/core.py").read_bytes()
    with ScriptedServer([{"tool_calls": [SED]}, {"tool_calls": [DONE]}]) as server:
        done, result = run_apply(repo, server)
    flag = f"changes stats/core.py, which the rule ask `edit: stats/**` ({rules}) asks about"
    assert result["not_applied"] == f"Nothing was applied without --apply-flagged: the diff {flag}."
    assert done.returncode == result["exit_code"] == 1
    assert (repo / "stats/core.py").read_bytes() == before
    # `kiln apply` asks too (no terminal here: it needs --yes); the flag, not anything
    # else, held it back: said yes to, it is written.
    asked = kiln("apply", result["session_id"])
    assert asked.returncode == 1 and f"Look first: the diff {flag}." in asked.stdout
    assert (repo / "stats/core.py").read_bytes() == before
    later = kiln("apply", result["session_id"], "--yes")
    assert later.returncode == 0, later.stderr
    assert (repo / "stats/core.py").read_text() == "def total(a, b):\n    return a + b\n"


def run_apply(
    repo: Path, server: ScriptedServer
) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    done = kiln(
        "run", "make the tests pass", "--repo", str(repo), "--base-url", server.base_url,
        "--model", "scripted", "--approval", "full-auto", "--apply", "--output-format", "json",
    )  # fmt: skip
    return done, json.loads(done.stdout)


def test_a_line_kiln_cannot_read_is_asked_and_so_refused_with_no_person(tmp_path: Path) -> None:
    rules = config('deny = ["run: git push*"]\n')
    repo = make_git_repo(tmp_path / "repo", STATS_REPO)
    line = 'CMD="git push"; touch ran && sh -c "$CMD"'
    with ScriptedServer([call(line), call("ls ran"), {"tool_calls": [DONE]}]) as server:
        code, result, _ = run_json(repo, server, "What does git push say here? Try it.")
        told = tool_replies(server)
    assert "no person is present" in told[0] and "No such file" in told[1]
    assert result["denied"] == [
        {
            "tool": "run",
            "what": f"run `{line}` (asked: kiln cannot tell all this line runs (`sh -c` is "
            f"given a script known only when it runs), so the rule deny `run: git push*` "
            f"({rules}) may apply)",
            "why": "needed approval: no person is present to approve this (headless run)",
        }
    ]
    assert code == result["exit_code"] == 7
