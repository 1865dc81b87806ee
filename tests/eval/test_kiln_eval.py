"""`kiln eval` end to end: the installed `kiln` as a subprocess, a scripted model over real
HTTP, the real Docker sandbox. One run fixes its task; one rewrites the test to pass and is
judged on the real test, restored, so it is not solved."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from agent.llm.scripted.server import ScriptedServer

KILN = str(Path(sys.executable).parent / "kiln")
PROMPT = "The tests fail (`python3 -m unittest`), fix it."

TASKS = {
    "adder": {
        "adder.py": "def add(a, b):\n    return a - b\n",
        "test_adder.py": (
            "import unittest\nfrom adder import add\n\n\nclass T(unittest.TestCase):\n"
            "    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n"
        ),
    },
    "greeter": {
        "greeter.py": "def greet(name):\n    return 'Hello ' + name\n",
        "test_greeter.py": (
            "import unittest\nfrom greeter import greet\n\n\nclass T(unittest.TestCase):\n"
            "    def test_greet(self):\n        self.assertEqual(greet('Ada'), 'Hello, Ada!')\n"
        ),
    },
}


def _edit(path: str, old: str, new: str) -> dict[str, Any]:
    call = {"name": "edit_file", "arguments": {"path": path, "old_text": old, "new_text": new}}
    return {"tool_calls": [call]}


def _finish(summary: str) -> dict[str, Any]:
    return {"tool_calls": [{"name": "finish", "arguments": {"summary": summary}}]}


TURNS = [
    _edit("adder.py", "return a - b", "return a + b"),
    _finish("add() adds."),
    # The second task's "fix" makes the test expect what the code does.
    _edit("test_greeter.py", "'Hello, Ada!'", "'Hello Ada'"),
    _finish("The test now passes."),
]


def _write_set(root: Path) -> Path:
    for name, files in TASKS.items():
        folder = root / "tune" / name
        folder.mkdir(parents=True)
        (folder / "task.toml").write_text(
            f'title = "{name}"\nprompt = "{PROMPT}"\ntest_command = "python3 -m unittest"\n'
        )
        (folder / "fix.patch").write_text("reference only\n")
        for file, text in files.items():
            (folder / file).write_text(text)
    return root


def run_eval(folder: Path, server: ScriptedServer, out: Path) -> subprocess.CompletedProcess[str]:
    """`kiln eval FOLDER` against the scripted server, its results lines written to `out`."""
    return subprocess.run(
        [KILN, "eval", str(folder), "--base-url", server.base_url, "--model", "scripted",
         "--out", str(out), "--timeout", "120"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def test_a_fix_is_solved_and_a_rewritten_test_is_not(docker_ready: None, tmp_path: Path) -> None:
    eval_dir = _write_set(tmp_path / "eval")
    out = tmp_path / "results.jsonl"
    with ScriptedServer(TURNS) as server:
        done = run_eval(eval_dir, server, out)
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line for line in done.stdout.splitlines()}
    assert rows["tune/adder"].split()[1] == "1/1" and "done 1" in rows["tune/adder"]
    assert rows["tune/greeter"].split()[1] == "0/1"
    assert "tune: solved 1/2 task-runs (50%), median" in done.stdout
    assert (
        "solved by rewrite 0, variant 0, part_of_rewrite 0, module 0, sampled_edit 0, loop 1"
        in done.stdout
    )
    assert "tune/adder run 1/1: solved" in done.stderr

    records = [json.loads(line) for line in out.read_text().splitlines()]
    runs = {r["task"]: r for r in records if r["kind"] == "run"}
    assert runs["adder"]["solved"] is True and runs["adder"]["tests_restored"] == []
    assert "+    return a + b" in runs["adder"]["diff"]
    # kiln itself saw the rewritten test pass; the judge restored it and saw it fail.
    assert runs["greeter"]["stop_reason"] == "done" and runs["greeter"]["solved"] is False
    assert runs["greeter"]["tests_restored"] == ["test_greeter.py"]
    assert runs["adder"]["steps"] >= 2 and runs["adder"]["output_tokens"] > 0
    tasks = [r for r in records if r["kind"] == "task"]
    assert [(t["task"], t["solved"], t["runs"]) for t in tasks] == [
        ("adder", 1, 1),
        ("greeter", 0, 1),
    ]
    (total,) = [r for r in records if r["kind"] == "total"]
    assert (total["split"], total["task_runs"], total["solved"]) == ("tune", 2, 1)
    assert total["solved_share"] == 0.5
    assert total["solved_by"]["loop"] == 1 and sum(total["solved_by"].values()) == 1


def test_a_folder_without_tasks_is_one_sentence(tmp_path: Path) -> None:
    done = subprocess.run([KILN, "eval", str(tmp_path)], capture_output=True, text=True)
    assert done.returncode != 0 and "holds no tasks" in done.stderr
    assert "Traceback" not in done.stderr
