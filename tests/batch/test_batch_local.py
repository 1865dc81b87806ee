"""`kiln batch` on the local engine, end to end: the installed `kiln` as a subprocess, one
scripted model server per task over real HTTP, real Docker sandboxes, real git repositories."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.batch.scenario import IDS, KILN, Batch, check_solved_batch, leftovers
from tests.scripted import FIX_SCRIPT

pytestmark = pytest.mark.docker


def test_four_tasks_two_jobs_all_solved_then_a_rerun_skips_them(tmp_path: Path) -> None:
    batch = Batch(tmp_path)
    with batch.serving():
        done = batch.run("--jobs", "2", "--output-format", "json")
        assert done.returncode == 0, done.stderr
        lines = check_solved_batch(batch)
        printed = [json.loads(line) for line in done.stdout.splitlines()]
        assert [p["type"] for p in printed] == ["result"] * 4 + ["summary"]
        summary = printed[-1]
        assert (summary["solved"], summary["failed"], summary["error"]) == (4, 0, 0)
        assert (
            summary["exit_code"] == 0 and summary["p95_duration_s"] >= summary["p50_duration_s"] > 0
        )
        assert all(line["attempt"] == 1 for line in lines)
        assert leftovers(f"kiln.batch={batch.out}") == ([], [])  # a clean end leaves nothing
        served = {task_id: len(batch.servers[task_id].chat_requests) for task_id in IDS}
        again = batch.run("--jobs", "2")
        assert again.returncode == 0, again.stderr
        assert "4 of 4 tasks finished in an earlier run: skipped" in again.stderr
        assert "solved      4" in again.stdout
        assert batch.lines() == lines  # nothing appended, nothing rewritten
        assert served == {task_id: len(batch.servers[task_id].chat_requests) for task_id in IDS}


def test_kill_9_after_the_first_result_then_a_rerun_loses_and_doubles_nothing(
    tmp_path: Path,
) -> None:
    # alpha answers at once; the others hold their first reply, so the kill finds them busy.
    batch = Batch(tmp_path, delays={"bravo": 4.0, "charlie": 4.0, "delta": 4.0})
    with batch.serving():
        driver = subprocess.Popen(batch.command("--jobs", "2"), stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)  # fmt: skip
        deadline = time.monotonic() + 180
        while not batch.lines() and time.monotonic() < deadline and driver.poll() is None:
            time.sleep(0.05)
        os.kill(driver.pid, signal.SIGKILL)
        driver.wait()
    first = batch.lines()
    assert [line["id"] for line in first] == ["alpha"]  # bravo was running, the rest waiting
    with batch.serving():  # the same command again, each script from its start
        again = batch.run("--jobs", "2")
    assert again.returncode == 0, again.stderr + again.stdout
    assert "1 of 4 tasks finished in an earlier run: skipped" in again.stderr
    lines = check_solved_batch(batch)
    assert lines[0] == first[0]  # the first run's result is kept as it was
    # The killed run's sandbox (bravo's) is left with a dead owner; prune removes it.
    pruned = subprocess.run([KILN, "sandbox", "prune"], capture_output=True, text=True)
    assert pruned.returncode == 0, pruned.stderr
    assert leftovers(f"kiln.batch={batch.out}") == ([], [])


def test_failures_are_contained_and_only_the_machinery_is_retried(tmp_path: Path) -> None:
    give_up = [{"tool_calls": [{"name": "finish", "arguments": {"summary": "meh"}}]}] * 5
    batch = Batch(tmp_path, scripts={"delta": give_up})  # delta: the agent gives up
    bare = tmp_path / "alpha.git"  # alpha: a git URL at a rev, cloned for the run
    subprocess.run(
        ["git", "clone", "-q", "--bare", str(batch.repos["alpha"]), str(bare)], check=True
    )
    with batch.serving():
        batch.write_tasks(
            {
                "alpha": {"repo": f"file://{bare}", "rev": "main"},
                "bravo": {"repo": str(tmp_path / "no-such-repo")},  # a bad repository
                "charlie": {"model": {"base_url": "http://127.0.0.1:9/v1", "model": "m"}},  # down
            }
        )
        done = batch.run("--jobs", "2", "--retries", "1")
    assert done.returncode == 1, done.stderr
    by_id = {line["id"]: line for line in batch.lines()}
    assert sorted(by_id) == sorted(IDS)
    assert by_id["alpha"]["status"] == "solved" and by_id["alpha"]["tests_before"]["failed"] == 1
    assert by_id["bravo"]["status"] == "error" and by_id["bravo"]["attempt"] == 1
    assert "not a directory" in by_id["bravo"]["summary"]
    assert (
        by_id["charlie"]["status"] == "error" and by_id["charlie"]["stop_reason"] == "model_error"
    )
    assert by_id["charlie"]["attempt"] == 2  # retried once, then recorded
    assert "retrying charlie (attempt 2 of 2)" in done.stderr
    assert by_id["delta"]["status"] == "failed" and by_id["delta"]["attempt"] == 1
    assert by_id["delta"]["stop_reason"] == "tests_still_failing"
    assert "solved      1" in done.stdout and "errors      2" in done.stdout
    preds = json.loads((batch.out / "preds.json").read_text())
    assert preds["bravo"]["model_patch"] == "" and "a + b" in preds["alpha"]["model_patch"]


def test_the_batch_budget_stops_starting_tasks_once_spent(tmp_path: Path) -> None:
    from agent.settings import paths

    paths.user_config_file().parent.mkdir(parents=True, exist_ok=True)
    paths.user_config_file().write_text(  # a priced model: $1 per million tokens each way
        "[models.main.prices]\ninput = 1.0\ncached_input = 1.0\noutput = 1.0\n"
    )
    batch = Batch(tmp_path)
    with batch.serving():
        done = batch.run("--jobs", "1", "--budget-usd", "0.000001", "--output-format", "json")
    assert done.returncode == 1, done.stderr
    assert [line["id"] for line in batch.lines()] == ["alpha"]  # the first one spent it all
    assert batch.lines()[0]["cost_usd"] > 0.000001
    summary = json.loads(done.stdout.splitlines()[-1])
    assert summary["budget_spent"] is True and summary["not_started"] == 3
    assert all(not batch.servers[i].chat_requests for i in ("bravo", "charlie", "delta"))


def test_ctrl_c_lets_running_tasks_finish_and_starts_no_more(tmp_path: Path) -> None:
    batch = Batch(tmp_path, delays={"alpha": 3.0, "bravo": 3.0})
    with batch.serving():
        driver = batch.start("--jobs", "2", busy=2)  # alpha and bravo: their first reply
        driver.send_signal(signal.SIGINT)
        out, err = driver.communicate(timeout=120)
    assert driver.returncode == 130, err
    assert "stopping: no new tasks; 2 running will finish" in err
    assert sorted(line["id"] for line in batch.lines()) == ["alpha", "bravo"]
    assert all(line["status"] == "solved" for line in batch.lines())
    assert not batch.servers["charlie"].requests and not batch.servers["delta"].requests
    assert "interrupted: run the same command again" in out
    assert leftovers(f"kiln.batch={batch.out}") == ([], [])
    with batch.serving():
        again = batch.run("--jobs", "2")
    assert again.returncode == 0, again.stderr
    check_solved_batch(batch)


def test_a_second_ctrl_c_cancels_the_running_tasks_and_records_none(tmp_path: Path) -> None:
    batch = Batch(tmp_path, delays={i: 30.0 for i in IDS})
    with batch.serving():
        driver = batch.start("--jobs", "2", busy=2)
        said = batch.press_ctrl_c_twice(driver)
        _, rest = driver.communicate(timeout=60)
        err = said + rest
    assert driver.returncode == 130, err
    assert "cancelling 2 running tasks" in err
    assert batch.lines() == []  # nothing finished, so nothing is recorded
    assert json.loads((batch.out / "preds.json").read_text()) == {}
    assert leftovers(f"kiln.batch={batch.out}") == ([], [])  # a clean stop leaves nothing


def test_apply_writes_the_solved_tasks_diffs_to_their_repositories(tmp_path: Path) -> None:
    give_up = [{"tool_calls": [{"name": "finish", "arguments": {"summary": "meh"}}]}] * 5
    batch = Batch(tmp_path, scripts={"delta": give_up})
    with batch.serving():
        done = batch.run("--jobs", "2", "--apply")
    assert done.returncode == 1, done.stderr
    for task_id in ("alpha", "bravo", "charlie"):
        assert (batch.repos[task_id] / "calc.py").read_text().endswith("a + b\n")
    assert (batch.repos["delta"] / "calc.py").read_text().endswith("a - b\n")  # not solved


def test_a_task_the_machinery_failed_is_started_again_and_solved(tmp_path: Path) -> None:
    from agent.settings import paths

    paths.user_config_file().parent.mkdir(parents=True, exist_ok=True)
    paths.user_config_file().write_text("[models.main]\nmax_retries = 0\n")  # fail at once
    flaky = [{**FIX_SCRIPT[0], "fault": "500"}, *FIX_SCRIPT[1:]]  # one 500, then the fix
    batch = Batch(tmp_path, scripts={"bravo": flaky})
    with batch.serving():
        done = batch.run("--jobs", "2")
    assert done.returncode == 0, done.stderr
    assert "retrying bravo (attempt 2 of 3)" in done.stderr
    lines = check_solved_batch(batch)
    assert {line["id"]: line["attempt"] for line in lines} == {
        "alpha": 1, "bravo": 2, "charlie": 1, "delta": 1
    }  # fmt: skip
