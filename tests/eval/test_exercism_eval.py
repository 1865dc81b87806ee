"""`kiln eval` on Exercism-shaped exercises written here (not real ones), end to end: the
installed `kiln` as a subprocess, a scripted model over real HTTP, the real Docker sandbox.
The solution in `.meta/` never reaches the repository the model sees, the prompt is the
instructions with Aider's line naming the stub, and a run that rewrote the test is judged
on the test restored."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from agent.llm.scripted.server import ScriptedServer
from tests.eval.test_kiln_eval import run_eval

KILN = str(Path(sys.executable).parent / "kiln")
SOLUTION_MARK = "reference-solution-only-in-meta"

EXERCISES = {
    "tally": {
        ".docs/instructions.md": "# Instructions\n\nAdd up every count in the tally sheet.\n",
        ".docs/introduction.md": "# Introduction\n\nThe village fair keeps a tally sheet.\n",
        ".meta/example.py": f"def total(counts):  # {SOLUTION_MARK}\n    return sum(counts)\n",
        ".meta/config.json": json.dumps({"files": {"solution": ["tally.py"]}}),
        ".approaches/introduction.md": f"A write-up of solutions: {SOLUTION_MARK}\n",
        "tally.py": "def total(counts):\n    pass\n",
        "tally_test.py": "from tally import total\n\n\ndef test_total():\n"
        "    assert total([1, 2, 4]) == 7\n",
    },
    "welcome": {
        ".docs/instructions.md": "# Instructions\n\nWelcome a guest by name, with a comma.\n",
        ".meta/example.py": f"def welcome(name):  # {SOLUTION_MARK}\n"
        "    return f'Welcome, {name}!'\n",
        "welcome.py": "def welcome(name):\n    return 'Welcome ' + name\n",
        "welcome_test.py": "from welcome import welcome\n\n\ndef test_welcome():\n"
        "    assert welcome('Ada') == 'Welcome, Ada!'\n",
    },
}


def _call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


TURNS = [
    _call("run", command="find . -path ./.git -prune -o -type f -print | sort"),
    _call("write_file", path="tally.py", content="def total(counts):\n    return sum(counts)\n"),
    _call("finish", summary="total() adds the counts."),
    # The second exercise's "solution" makes its test expect what the stub does.
    _call(
        "edit_file", path="welcome_test.py", old_text="'Welcome, Ada!'", new_text="'Welcome Ada'"
    ),
    _call("finish", summary="The test passes now."),
]


def _write_exercises(root: Path) -> Path:
    for name, files in EXERCISES.items():
        for relative, text in files.items():
            path = root / name / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
    return root


def test_an_exercise_is_run_without_its_solution_and_judged_on_its_own_test(
    docker_ready: None, tmp_path: Path
) -> None:
    exercises = _write_exercises(tmp_path / "practice")
    out = tmp_path / "results.jsonl"
    with ScriptedServer(TURNS) as server:
        done = run_eval(exercises, server, out)
        requests = [json.dumps(r.body) for r in server.chat_requests]
    assert done.returncode == 0, done.stderr
    assert server.turns_served == len(TURNS)

    # What the model saw: the introduction, then the instructions, then Aider's line.
    first = json.loads(requests[0])
    task = next(m["content"] for m in first["messages"] if m["role"] == "user")
    assert "The village fair keeps a tally sheet." in task
    assert task.index("village fair") < task.index("Add up every count") < task.index("####")
    assert "Use the above instructions to modify the supplied files: tally.py\n" in task
    # The workspace as the model listed it: the docs and the stub, no solution anywhere.
    listing = next(r for r in requests if "./tally_test.py" in r)
    assert "./.docs/instructions.md" in listing and "./tally.py" in listing
    assert ".meta" not in listing and ".approaches" not in listing
    assert not [r for r in requests if SOLUTION_MARK in r]

    records = [json.loads(line) for line in out.read_text().splitlines()]
    runs = {r["task"]: r for r in records if r["kind"] == "run"}
    assert runs["tally"]["solved"] is True and "+    return sum(counts)" in runs["tally"]["diff"]
    # kiln saw the rewritten test pass; the judge put it back and saw it fail.
    assert runs["welcome"]["stop_reason"] == "done" and runs["welcome"]["solved"] is False
    assert runs["welcome"]["tests_restored"] == ["welcome_test.py"]
    assert "practice: solved 1/2 task-runs" in done.stdout


def test_only_exclude_and_sample_choose_the_same_exercises_each_time(tmp_path: Path) -> None:
    from agent.local.evaluate import choose_tasks, find_tasks

    practice = _write_exercises(tmp_path / "practice")
    for name in ("anagram", "bob", "clock", "darts", "etl"):
        _write_exercises(tmp_path / "more")
        (tmp_path / "more" / "tally").rename(practice / name)
    other = _write_exercises(tmp_path / "other_benchmark")
    found = find_tasks(practice)
    names = [task.name for _, task in found]
    assert names == ["anagram", "bob", "clock", "darts", "etl", "tally", "welcome"]

    rest = choose_tasks(found, exclude_from=str(other))
    assert [t.name for _, t in rest] == ["anagram", "bob", "clock", "darts", "etl"]
    picked = [t.name for _, t in choose_tasks(found, exclude_from=str(other), sample=3, seed=7)]
    again = [t.name for _, t in choose_tasks(found, exclude_from=str(other), sample=3, seed=7)]
    assert len(picked) == 3 and picked == again and set(picked) < set(names)
    others = {
        tuple(t.name for _, t in choose_tasks(found, sample=3, seed=seed)) for seed in range(6)
    }
    assert len(others) > 1  # the seed chooses
    assert [t.name for _, t in choose_tasks(found, only="bob,etl")] == ["bob", "etl"]


def test_an_unknown_name_in_only_is_one_sentence(tmp_path: Path) -> None:
    practice = _write_exercises(tmp_path / "practice")
    done = subprocess.run(
        [KILN, "eval", str(practice), "--only", "tally,nosuch"], capture_output=True, text=True
    )
    assert done.returncode != 0 and "no task named nosuch" in done.stderr
    assert "Traceback" not in done.stderr


def test_compare_agents_runs_kiln_on_exercises_in_its_table(
    docker_ready: None, tmp_path: Path
) -> None:
    """The comparison script's kiln column: the same trial and judge as `kiln eval`."""
    exercises = _write_exercises(tmp_path / "practice")
    script = Path(__file__).resolve().parents[2] / "bench" / "compare_agents.py"
    with ScriptedServer(TURNS[:3]) as server:
        done = subprocess.run(
            [sys.executable, str(script), "kiln", str(exercises), "--only", "tally",
             "--base-url", server.base_url, "--model", "scripted", "--timeout", "120",
             "--out", str(tmp_path / "cmp.jsonl")],
            capture_output=True, text=True, timeout=300, cwd=script.parents[1],
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "practice: kiln solved 1/1 task-runs (100%)" in done.stdout
    (record,) = [json.loads(line) for line in (tmp_path / "cmp.jsonl").read_text().splitlines()]
    assert (record["agent"], record["task"], record["solved"]) == ("kiln", "tally", True)
