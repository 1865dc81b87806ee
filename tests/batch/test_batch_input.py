"""The TASKS file and DIR, without a sandbox: bad lines named before anything starts, a
torn last line of results.jsonl cut off, one driver per DIR."""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path

import pytest

from agent.batch.progress import Progress
from agent.batch.results import ResultsDir
from agent.batch.tasks import load_tasks
from agent.errors import UsageError
from tests.batch.scenario import KILN


def test_every_bad_line_is_named_and_nothing_starts(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(
        '{"id": "ok", "repo": ".", "task": "fix it"}\n'
        "\n"
        '{"id": "ok", "repo": ".", "task": "again"}\n'
        '{"id": "x", "repo": ".", "task": "t", "budget": 1}\n'
        "not json\n"
        '{"id": "a/b", "repo": ".", "task": "t"}\n'
        '{"id": "y", "repo": ".", "task": "t", "max_steps": 2.5}\n'
        '{"id": "z", "repo": ".", "task": "t", "model": {"provider": "gemini"}}\n'
        '{"id": "w", "repo": "."}\n'
    )
    out = tmp_path / "out"
    done = subprocess.run(
        [KILN, "batch", str(tasks), "--out", str(out)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    for expected in (
        "line 3: the id 'ok' is already used on line 1",
        "line 4: unknown key 'budget'",
        "line 5: not valid JSON",
        "line 6: the id 'a/b' may hold only",
        "line 7: 'max_steps' should be a whole number",
        "line 8: 'model.provider' should be openai, anthropic or ollama",
        "line 9: 'task' is missing",
    ):
        assert expected in done.stderr, expected
    assert not out.exists()  # nothing started, nothing written


def test_yaml_tasks_with_line_numbers_and_paths_relative_to_the_file(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.yaml"
    tasks.write_text(
        "- id: one\n  repo: repos/one\n  task: fix\n  setup: pip install -e .\n"
        "- id: two\n  repo: file:///srv/two.git\n  rev: v1\n  task: fix\n"
        "  model: {base_url: 'http://127.0.0.1:8080/v1', model: m}\n"
        "- id: three\n  task: fix\n"
    )
    with pytest.raises(UsageError, match="line 10: 'repo' is missing"):
        load_tasks(tasks)
    tasks.write_text(tasks.read_text().rsplit("- id: three", 1)[0])
    one, two = load_tasks(tasks)
    assert one.repo == str(tmp_path / "repos" / "one") and one.setup == ("pip install -e .",)
    assert (
        two.is_url
        and two.rev == "v1"
        and two.model == {"base_url": "http://127.0.0.1:8080/v1", "model": "m"}
    )


def test_a_torn_last_line_is_cut_off_and_one_driver_holds_the_dir(tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = ResultsDir(out)
    first.record({"id": "a", "status": "solved", "cost_usd": 0.5}, "diff --git a/x b/x\n")
    with pytest.raises(UsageError, match="Another kiln batch is writing"):
        ResultsDir(out)
    first.close()
    with open(out / "results.jsonl", "a") as results:  # a kill in the middle of a write
        results.write('{"id": "b", "status": "sol')
    again = ResultsDir(out)
    assert list(again.records) == ["a"] and again.records["a"]["patch"] == "patches/a.patch"
    again.record({"id": "b", "status": "failed", "cost_usd": None}, "")
    again.record({"id": "b", "status": "failed", "cost_usd": None}, "")  # never twice
    again.write_preds()
    again.close()
    lines = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [line["id"] for line in lines] == ["a", "b"]
    preds = json.loads((out / "preds.json").read_text())
    assert preds["a"]["model_patch"] == "diff --git a/x b/x\n" and preds["b"]["model_patch"] == ""


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_status_line_is_redrawn_and_results_go_above_it() -> None:
    err, out = Terminal(), io.StringIO()
    progress = Progress(err, out, json_lines=True, budget_usd=1.0)
    progress.begin(total=4, skipped=1, spent=0.25)
    progress.started("b", 0.25)
    progress.cost(0.5)
    assert err.getvalue().endswith(
        "\r\033[Kkiln batch: 1/4 done · 1 running · 0 failed · $0.50 / $1.00 · ETA ?"
    )
    record = {"id": "b", "status": "failed", "stop_reason": "max_steps", "duration_s": 2.0,
              "cost_usd": 0.3, "attempt": 2, "summary": ""}  # fmt: skip
    progress.finished(record, 0.55)
    shown = err.getvalue()
    assert "\r\033[K[2/4] ✗ b: failed (max_steps) 2.0s $0.3000 attempt 2\n" in shown
    assert shown.endswith("2/4 done · 0 running · 1 failed · $0.55 / $1.00 · ETA 0:00")
    assert json.loads(out.getvalue()) == {"type": "result", **record}
    plain = io.StringIO()  # a log: lines only, no status line
    Progress(plain, io.StringIO(), json_lines=False, budget_usd=0).begin(3, 0, 0.0)
    assert plain.getvalue() == ""


def test_a_bad_repo_is_that_tasks_error_and_ids_taken_out_of_tasks_are_not_counted(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    earlier = ResultsDir(out)  # DIR holds a result for an id since taken out of TASKS
    earlier.record({"id": "gone", "status": "solved", "duration_s": 1.0, "cost_usd": 0.0}, "")
    earlier.close()
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(
        "".join(
            json.dumps({"id": f"t{n}", "repo": str(tmp_path / "missing"), "task": "fix"}) + "\n"
            for n in range(3)
        )
    )
    done = subprocess.run(
        [KILN, "batch", str(tasks), "--out", str(out), "--jobs", "2", "--output-format", "json"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    summary = json.loads(done.stdout.splitlines()[-1])
    assert (summary["tasks"], summary["finished"], summary["error"]) == (3, 3, 3)
    assert summary["solved"] == 0  # "gone" is not one of these tasks
    lines = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert lines[0]["id"] == "gone" and sorted(line["id"] for line in lines[1:]) == [
        "t0",
        "t1",
        "t2",
    ]
    for line in lines[1:]:  # bad input: recorded at once, never retried
        assert line["status"] == "error" and line["stop_reason"] == "config_error"
        assert line["attempt"] == 1 and "not a directory" in line["summary"]


def test_a_patch_that_is_not_utf8_is_kept_byte_for_byte(tmp_path: Path) -> None:
    raw = b"diff --git a/old.txt b/old.txt\n--- a/old.txt\n+++ b/old.txt\n@@ -1 +1 @@\n-caf\xe9\n"
    results = ResultsDir(tmp_path / "out")
    results.record({"id": "a", "status": "solved"}, raw.decode("utf-8", "surrogateescape"))
    results.write_preds()
    results.close()
    assert (tmp_path / "out" / "patches" / "a.patch").read_bytes() == raw
    preds = json.loads((tmp_path / "out" / "preds.json").read_text())
    assert preds["a"]["model_patch"].encode("utf-8", "surrogateescape") == raw
