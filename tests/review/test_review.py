"""`kiln review` end to end: the installed `kiln` against the scripted model over real
HTTP, on real repositories whose last commit introduces a bug."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema

from agent.llm.scripted.server import ScriptedServer
from tests.vcs.conftest import commit_file, git

KILN = str(Path(sys.executable).parent / "kiln")
SCHEMA = Path(__file__).with_name("sarif-schema-2.1.0.json")


def finding(priority: int, line: int = 4, **more: Any) -> dict[str, Any]:
    args = {
        "path": "shop.py", "line": line, "priority": priority, "confidence": 0.9,
        "category": "bug", "title": "total() skips the first price",
        "body": "prices[1:] leaves out the first price, so every total is too small.",
        **more,
    }  # fmt: skip
    return {"name": "report_finding", "arguments": args}


def finish(verdict: str = "incorrect") -> dict[str, Any]:
    return {
        "name": "finish_review",
        "arguments": {"verdict": verdict, "summary": "total() is off."},
    }


def verified(holds: bool = True, confidence: float = 0.95) -> dict[str, Any]:
    real = "yes" if holds else "no"
    call = {"name": "verify_finding", "arguments": {"real": real, "confidence": confidence}}
    return {"tool_calls": [call]}


def review(repo: Path, server: ScriptedServer, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [KILN, "review", *args, "--repo", str(repo), "--base-url", server.base_url,
         "--model", "scripted-model"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_json_reports_the_bug_with_path_line_and_priority(buggy_repo: Path) -> None:
    turns = [
        {"tool_calls": [{"name": "read_file", "arguments": {"path": "shop.py"}}]},
        {"tool_calls": [finding(0, suggestion="    for price in prices:")]},
        {"tool_calls": [finish()]},
        verified(),
    ]
    with ScriptedServer(turns) as server:
        done = review(buggy_repo, server, "HEAD", "--output-format", "json")
        chats = server.chat_requests
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["revision"] == git(buggy_repo, "rev-parse", "HEAD").strip()
    assert result["verdict"] == "incorrect"
    [only] = result["findings"]
    assert (only["path"], only["line"], only["end_line"], only["priority"]) == ("shop.py", 4, 4, 0)
    assert only["category"] == "bug" and only["suggestion"] == "for price in prices:"
    assert len(only["id"]) == 16
    assert set(result) >= {"revision", "verdict", "summary", "findings", "usage", "cost_usd"}
    assert result["usage"]["output_tokens"] > 0
    # What the model saw: the change with new-side numbers, and read_file's answer from
    # the reviewed tree (the new side).
    first = chats[0].body["messages"][-1]["content"]
    assert "    4 +    for price in prices[1:]:" in first
    assert "    4 -" not in first and "      -    for price in prices:" in first
    tool_answer = chats[1].body["messages"][-1]["content"]
    assert "for price in prices[1:]:" in tool_answer
    assert len(chats) == 4  # three for the chunk, one to verify the finding
    # The review is a stored session like any: its requests, its result, its cost.
    listed = subprocess.run([KILN, "sessions", "list"], capture_output=True, text=True).stdout
    row = next(line for line in listed.splitlines() if "review HEAD" in line)
    assert row.split()[3:5] == ["done", "4"]  # status, steps (requests)


def test_fail_on_p1_exits_1_for_a_p0_and_0_for_only_p3(buggy_repo: Path) -> None:
    severe = [{"tool_calls": [finding(0)]}, {"tool_calls": [finish()]}, verified()]
    with ScriptedServer(severe) as server:
        done = review(buggy_repo, server, "HEAD", "--fail-on", "P1", "--output-format", "json")
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["findings"][0]["priority"] == 0

    nit = [{"tool_calls": [finding(3)]}, {"tool_calls": [finish("correct")]}, verified()]
    with ScriptedServer(nit) as server:
        done = review(buggy_repo, server, "HEAD", "--fail-on", "P1", "--output-format", "json")
    assert done.returncode == 0, done.stderr
    assert [f["priority"] for f in json.loads(done.stdout)["findings"]] == [3]


def test_sarif_validates_against_the_2_1_0_schema(buggy_repo: Path) -> None:
    turns = [
        {"tool_calls": [finding(0), finding(2, line=9, end_line=10, title="no empty check",
                                            category="maintainability")]},
        {"tool_calls": [finish()]},
        verified(), verified(),
    ]  # fmt: skip
    with ScriptedServer(turns) as server:
        done = review(buggy_repo, server, "HEAD", "--output-format", "sarif")
    assert done.returncode == 0, done.stderr
    sarif = json.loads(done.stdout)
    jsonschema.validate(sarif, json.loads(SCHEMA.read_text()))
    results = sarif["runs"][0]["results"]
    assert [r["level"] for r in results] == ["error", "warning"]
    region = results[0]["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 4, "endLine": 4}
    assert results[1]["locations"][0]["physicalLocation"]["region"]["endLine"] == 10
    # The schema really is checked: a result without its message fails it.
    del results[0]["message"]
    try:
        jsonschema.validate(sarif, json.loads(SCHEMA.read_text()))
    except jsonschema.ValidationError:
        pass
    else:
        raise AssertionError("an invalid SARIF log passed the schema")


def test_low_confidence_and_refuted_findings_are_dropped(buggy_repo: Path) -> None:
    turns = [
        {"tool_calls": [finding(1, confidence=0.3, title="maybe slow"), finding(0),
                        finding(2, line=10, title="divides by zero on an empty list")]},
        {"tool_calls": [finish()]},
        verified(True), verified(False),  # the check refutes the second kept finding
    ]  # fmt: skip
    with ScriptedServer(turns) as server:
        done = review(buggy_repo, server, "HEAD", "--output-format", "json")
        chats = len(server.chat_requests)
    result = json.loads(done.stdout)
    assert [f["title"] for f in result["findings"]] == ["total() skips the first price"]
    assert any("under confidence 0.5" in n for n in result["notes"])
    assert any("did not hold" in n for n in result["notes"])
    assert chats == 4  # no check for the finding dropped by confidence

    with ScriptedServer(turns[:2]) as server:
        done = review(buggy_repo, server, "HEAD", "--no-verify-findings", "--output-format", "json")
        assert len(server.chat_requests) == 2
    assert len(json.loads(done.stdout)["findings"]) == 2


def test_a_bad_line_goes_back_to_the_model_and_the_fingerprint_is_stable(buggy_repo: Path) -> None:
    turns = [
        {"tool_calls": [finding(0, line=99)]},
        {"tool_calls": [finding(0)]},
        {"tool_calls": [finish()]},
    ]
    with ScriptedServer(turns) as server:
        first = review(
            buggy_repo, server, "HEAD", "--no-verify-findings", "--output-format", "json"
        )
        answer = server.chat_requests[1].body["messages"][-1]["content"]
    assert "Not recorded: Lines 99-99 are not in shop.py, which has 10 lines" in answer
    [kept] = json.loads(first.stdout)["findings"]
    # Lines added above move the bug down; the same finding keeps its id.
    text = (buggy_repo / "shop.py").read_text()
    commit_file(buggy_repo, "shop.py", "import math\n\n" + text, "import math")
    commit_file(buggy_repo, "shop.py", (buggy_repo / "shop.py").read_text() + "\n# end\n", "end")
    moved = [{"tool_calls": [finding(0, line=6)]}, {"tool_calls": [finish()]}]
    with ScriptedServer(moved) as server:
        again = review(buggy_repo, server, "HEAD~2..HEAD", "--no-verify-findings",
                       "--output-format", "json")  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["findings"][0]["id"] == kept["id"]


def test_a_verdict_resting_on_a_refuted_finding_does_not_hold(buggy_repo: Path) -> None:
    turns = [{"tool_calls": [finding(0)]}, {"tool_calls": [finish("incorrect")]}, verified(False)]
    with ScriptedServer(turns) as server:
        done = review(buggy_repo, server, "HEAD", "--fail-on", "P3", "--output-format", "json")
    result = json.loads(done.stdout)
    assert done.returncode == 0 and result["findings"] == [] and result["verdict"] == "correct"


def test_bad_input_is_one_sentence_and_exit_2(buggy_repo: Path, tmp_path: Path) -> None:
    with ScriptedServer([]) as server:
        for flags, said in (
            (["--fail-on", "P9"], "is not a priority; give P0, P1, P2 or P3"),
            (["--min-confidence", "2"], "--min-confidence is a number from 0 to 1"),
            (["nope"], "'nope' is not a commit in this repository"),
            (["HEAD", "--staged"], "Name one target"),
        ):
            done = review(buggy_repo, server, *flags)
            assert done.returncode == 2, (flags, done.stderr)
            assert done.stderr.startswith("kiln: ") and said in done.stderr
            assert "Traceback" not in done.stderr
        assert server.chat_requests == []


def test_one_problem_reported_on_each_line_around_it_is_one_finding(buggy_repo: Path) -> None:
    turns = [
        {"tool_calls": [finding(0, line=n) for n in (3, 4, 5)] + [finding(2, line=9, title="other")]},
        {"tool_calls": [finish()]},
    ]  # fmt: skip
    with ScriptedServer(turns) as server:
        done = review(buggy_repo, server, "HEAD", "--no-verify-findings", "--output-format", "json")
    kept = [(f["line"], f["title"]) for f in json.loads(done.stdout)["findings"]]
    assert kept == [(4, "total() skips the first price"), (9, "other")]  # 4: the changed line
