"""`kiln run` end to end: the installed `kiln` as a subprocess (and in-process), a scripted
model over real HTTP, the real Docker sandbox, small real repositories with failing tests."""

from __future__ import annotations

import argparse
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from agent.headless.run import run_headless
from agent.llm.scripted.server import ScriptedServer
from agent.settings.flags import settings_for
from agent.store.db import Store
from tests.batch.scenario import leftovers
from tests.conftest import make_git_repo
from tests.scripted import BUGGY_REPO

KILN = str(Path(sys.executable).parent / "kiln")

SIX_STEP_FIX: list[dict[str, Any]] = [
    {"text": "Looking around.", "tool_calls": [{"name": "list_files", "arguments": {}}]},
    {"tool_calls": [{"name": "search", "arguments": {"pattern": "def add"}}]},
    {"tool_calls": [{"name": "read_file", "arguments": {"path": "calc.py"}}]},
    {
        "tool_calls": [
            {
                "name": "edit_file",
                "arguments": {
                    "path": "calc.py",
                    "old_text": "return a - b",
                    "new_text": "return a + b",
                },
            }
        ]
    },
    {"tool_calls": [{"name": "run_tests", "arguments": {}}]},
    {"tool_calls": [{"name": "finish", "arguments": {"summary": "add() now adds."}}]},
]


def snapshot(repo: Path) -> dict[str, bytes]:
    """Every file of the work tree and of .git, byte for byte."""
    return {
        str(p.relative_to(repo)): p.read_bytes() for p in sorted(repo.rglob("*")) if p.is_file()
    }


def kiln(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([KILN, *args], capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_git_repo(tmp_path / "repo", BUGGY_REPO)


def test_six_step_fix_applies_and_writes_the_patch(
    docker_ready: None, repo: Path, tmp_path: Path
) -> None:
    patch = tmp_path / "fix.patch"
    with ScriptedServer(SIX_STEP_FIX) as server:
        done = kiln(
            "run", "make the tests pass", "--repo", str(repo), "--base-url", server.base_url,
            "--model", "scripted", "--apply", "--patch-out", str(patch), "--output-format", "json",
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == "done" and result["stop_reason"] == "done"
    assert result["tests_before"]["failed"] == 1 and result["tests_after"]["ok"] is True
    assert result["files_changed"] == ["calc.py"] and result["applied"] == ["calc.py"]
    assert result["diff_stats"] == {"files": 1, "insertions": 1, "deletions": 1}
    assert result["steps"] == 6 and result["tool_calls"] == 6
    usage = result["usage"]
    assert set(usage) == {
        "uncached_input_tokens", "cached_input_tokens", "cache_write_tokens", "output_tokens",
        "reasoning_tokens",
    }  # fmt: skip
    assert usage["reasoning_tokens"] == 0  # the scripted model does not think
    assert usage["cached_input_tokens"] > 0 and usage["output_tokens"] > 0
    assert result["session_id"] and result["duration_s"] > 0
    # On disk: the repository has the fix, and the patch file is exactly that change.
    assert (repo / "calc.py").read_text() == "def add(a, b):\n    return a + b\n"
    assert "+    return a + b" in patch.read_text()
    reverse = subprocess.run(
        ["git", "apply", "--check", "-R", str(patch)], cwd=repo, capture_output=True
    )
    assert reverse.returncode == 0
    # The session was stored and can be listed, shown and exported.
    listed = kiln("sessions", "list")
    assert result["session_id"] in listed.stdout
    shown = kiln("sessions", "show", result["session_id"])
    assert "edit_file" in shown.stdout and "finished: done" in shown.stdout
    exported = [json.loads(line) for line in kiln("sessions", "export", "last").stdout.splitlines()]
    assert exported[0]["type"] == "session_started" and exported[0]["task"] == "make the tests pass"
    assert sum(1 for e in exported if e["type"] == "request") == 6
    # Applied at the end of the run, so nothing is left pending for a resume to restore.
    assert Store().state(result["session_id"])[1] == ""


def test_stream_json_prints_every_event_then_the_result(docker_ready: None, repo: Path) -> None:
    with ScriptedServer(SIX_STEP_FIX) as server:
        done = kiln(
            "run", "fix", "--repo", str(repo), "--base-url", server.base_url, "--model", "m",
            "--output-format", "stream-json",
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    kinds = [line["type"] for line in lines]
    assert kinds[0] == "session_started" and kinds[-2] == "finished" and kinds[-1] == "result"
    for kind in ("turn_started", "tool_call_started", "tool_call_finished", "tests_ran",
                 "files_changed", "checkpointed", "usage_updated", "phase_changed"):  # fmt: skip
        assert kind in kinds, kind
    assert (repo / "calc.py").read_text().endswith("a - b\n")  # no --apply: untouched
    # Not applied: the change stays with the session, for a resume or `kiln apply`.
    assert "+    return a + b" in Store().state(lines[0]["session_id"])[1]


def test_text_output_progress_on_stderr_summary_on_stdout(docker_ready: None, repo: Path) -> None:
    with ScriptedServer(SIX_STEP_FIX) as server:
        done = kiln(
            "run", "fix", "--repo", str(repo), "--base-url", server.base_url, "--model", "m"
        )
    assert done.returncode == 0
    assert "→ edit_file calc.py" in done.stderr and "tests: 1 passed" in done.stderr
    assert done.stdout.startswith("done (done): add() now adds.")


def test_approval_fail_exits_4_and_leaves_the_repo_byte_identical(
    docker_ready: None, repo: Path
) -> None:
    before = snapshot(repo)
    with ScriptedServer(SIX_STEP_FIX) as server:
        done = kiln(
            "run", "fix", "--repo", str(repo), "--base-url", server.base_url, "--model", "m",
            "--approval", "fail", "--apply", "--output-format", "json",
        )  # fmt: skip
    assert done.returncode == 4
    assert json.loads(done.stdout)["stop_reason"] == "approval_needed"
    assert "needs approval" in done.stderr
    assert snapshot(repo) == before


def test_limits_exit_3_and_still_failing_tests_exit_1(docker_ready: None, repo: Path) -> None:
    looping = {"loop": True, "turns": [SIX_STEP_FIX[1], SIX_STEP_FIX[2]]}
    with ScriptedServer(looping) as server:
        done = kiln(
            "run", "fix", "--repo", str(repo), "--base-url", server.base_url, "--model", "m",
            "--max-steps", "3", "--output-format", "json",
        )  # fmt: skip
    assert done.returncode == 3 and json.loads(done.stdout)["stop_reason"] == "max_steps"
    give_up = [{"tool_calls": [{"name": "finish", "arguments": {"summary": "meh"}}]}] * 5
    with ScriptedServer(give_up) as server:
        done = kiln("run", "fix", "--repo", str(repo), "--base-url", server.base_url, "--model", "m",
                    "--output-format", "json")  # fmt: skip
    assert done.returncode == 1
    assert json.loads(done.stdout)["stop_reason"] == "tests_still_failing"


def test_no_tests_and_nothing_changed_is_not_a_success(docker_ready: None, tmp_path: Path) -> None:
    untested = make_git_repo(tmp_path / "untested", {"notes.txt": "nothing to run here\n"})
    # The model says it is done, again and again: refused each time, then the run fails.
    claim = {"tool_calls": [{"name": "finish", "arguments": {"summary": "all good"}}]}
    with ScriptedServer({"loop": True, "turns": [claim]}) as server:
        done = kiln("run", "fix it", "--repo", str(untested), "--base-url", server.base_url,
                    "--model", "m", "--output-format", "json")  # fmt: skip
    result = json.loads(done.stdout)
    assert result["tests_after"] is None and result["files_changed"] == []
    assert done.returncode == 1 and result["exit_code"] == 1
    assert result["stop_reason"] == "nothing_changed" and "all good" in result["summary"]


def test_model_server_down_exits_6_in_one_sentence(docker_ready: None, repo: Path) -> None:
    with ScriptedServer([]) as server:
        dead_url = server.base_url  # nothing listens here once the server is closed
    done = kiln("run", "fix", "--repo", str(repo), "--base-url", dead_url, "--model", "m")
    assert done.returncode == 6
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "Nothing answers at" in done.stderr
    # The container asked for while kiln loaded (agent/headless/start.py) went with it.
    assert leftovers(f"kiln.repo={repo.resolve()}") == ([], [])


def test_bad_config_exits_2_in_one_sentence(repo: Path) -> None:
    (repo / ".kiln.toml").write_text('[limits]\nmax_steps = "lots"\n')
    done = kiln("run", "fix", "--repo", str(repo), "--base-url", "http://127.0.0.1:9/v1")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "limits.max_steps" in done.stderr
    not_a_repo = repo.parent / "plain"
    not_a_repo.mkdir()
    assert kiln("run", "fix", "--repo", str(not_a_repo)).returncode == 2


def test_sandbox_error_exits_5(docker_ready: None, repo: Path) -> None:
    env = {**os.environ, "KILN_IMAGE": "kiln-no-such-image:never"}
    with ScriptedServer(SIX_STEP_FIX) as server:
        done = subprocess.run(
            [KILN, "run", "fix", "--repo", str(repo), "--base-url", server.base_url, "--model", "m"],
            capture_output=True, text=True, env=env, timeout=120,
        )  # fmt: skip
    assert done.returncode == 5, done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1


def test_interrupt_exits_130(docker_ready: None, repo: Path) -> None:
    slow = [{**SIX_STEP_FIX[0], "fault": "slow_first_token", "delay_s": 60}]
    with ScriptedServer(slow) as server:
        proc = subprocess.Popen(
            [KILN, "run", "fix", "--repo", str(repo), "--base-url", server.base_url, "--model", "m",
             "--output-format", "stream-json"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert proc.stdout is not None
        for line in proc.stdout:  # wait until the model request is under way
            if json.loads(line)["type"] == "turn_started":
                break
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert json.loads(rest.splitlines()[-1])["stop_reason"] == "cancelled"


async def test_in_process_run_headless(docker_ready: None, repo: Path) -> None:
    args = argparse.Namespace(
        task="fix", repo=str(repo), base_url=None, model=None, provider=None,
        approval="full-auto", apply=True, patch_out=None, max_steps=None, budget_usd=None,
        timeout=None, output_format="json", test_command="python3 -m unittest -q",
    )  # fmt: skip
    out, err = io.StringIO(), io.StringIO()
    with ScriptedServer(SIX_STEP_FIX) as server:
        args.base_url, args.model = server.base_url, "m"
        code = await run_headless(args, repo, settings_for(args, repo), out=out, err=err)
    assert code == 0, err.getvalue()
    result = json.loads(out.getvalue())
    assert result["tests_after"]["command"] == "python3 -m unittest -q"
    assert result["applied"] == ["calc.py"]
    assert (repo / "calc.py").read_text().endswith("a + b\n")
