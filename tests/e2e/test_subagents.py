"""Child agents (the `agent` tool, agent/run/children.py): each in a sandbox of its own over
the parent's workspace, several at once, the parent reading their reports and never their
transcripts, their usage in the parent's meter and budget. The installed `kiln` as a
subprocess, the scripted model over real HTTP (each child's turns chosen by its task's
words: `when`), the real Docker sandbox, real git repositories."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from agent.llm.scripted.server import ScriptedServer
from agent.settings import paths
from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import KILN

pytestmark = pytest.mark.usefixtures("docker_ready")

REPO = {
    "calc.py": "def add(a, b):\n    return a + b\n",
    "test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
}
PARENT = "PARENT: where is add defined, and which tests cover it?"


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"name": name, "arguments": arguments}


def finish(summary: str, when: str) -> dict[str, Any]:
    return {"tool_calls": [call("finish", summary=summary)], "when": when}


def kiln(repo: Path, server: ScriptedServer, task: str = PARENT, *flags: str) -> list[dict]:
    done = subprocess.run(
        [KILN, "run", task, "--repo", str(repo), "--approval", "full-auto",
         "--output-format", "stream-json", "--base-url", server.base_url, "--model", "m",
         *flags],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def of(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def test_two_explorers_run_at_once_and_the_parent_reads_only_their_reports(
    tmp_path: Path,
) -> None:
    repo = make_git_repo(tmp_path / "repo", REPO)
    script = [
        {"tool_calls": [call("agent", agent="explore", task="TASK-A: where is add defined?"),
                        call("agent", agent="explore", task="TASK-B: which tests cover add?")],
         "when": "PARENT"},
        # Each child's first reply streams slowly: the two are in flight together.
        {"tool_calls": [call("search", pattern="return a")], "when": "TASK-A",
         "stream_delay_s": 0.3},
        {"tool_calls": [call("search", pattern="add(2, 3)")], "when": "TASK-B",
         "stream_delay_s": 0.3},
        finish("REPORT-A: add is defined in calc.py line 1.", "TASK-A"),
        finish("REPORT-B: test_calc.py covers add.", "TASK-B"),
        finish("Both found.", "PARENT"),
    ]  # fmt: skip
    with ScriptedServer(script) as server:
        events = kiln(repo, server)
        requests = server.chat_requests
    result = events[-1]
    assert result["stop_reason"] == "done", result
    kinds = [e["type"] for e in events if e["type"].startswith("subagent")]
    assert kinds[:2] == ["subagent_started", "subagent_started"]  # both before either ends
    told = [e["output"] for e in of(events, "tool_call_finished") if e["name"] == "agent"]
    assert sorted(e["status"] for e in of(events, "subagent_finished")) == ["answered"] * 2, told
    # The parent's last request holds both reports, none of the children's transcripts.
    parents = [r for r in requests if r.body["messages"][1]["content"].startswith("PARENT")]
    last = json.dumps(parents[-1].body["messages"])
    assert "REPORT-A" in last and "REPORT-B" in last
    assert "return a + b" not in last  # what the children's searches read stays theirs
    # The person's words reach every request, the children's included.
    assert all(PARENT in json.dumps(r.body["messages"]) for r in requests)
    # A child runs read-only with the tools its definition names, and starts no children.
    children = [r for r in requests if r not in parents]
    offered = {t["function"]["name"] for t in children[0].body["tools"]}
    assert offered == {"read_file", "list_files", "search", "find_symbol", "finish"}
    assert [a["name"] for a in result["agents"]] == ["explore", "explore"]
    # The meter: the parent's total is every request's, the children's included.
    usage = result["usage"]
    sent = sum(r.prompt_tokens for r in requests)
    assert usage["uncached_input_tokens"] + usage["cached_input_tokens"] == sent, (usage, sent)
    assert usage["output_tokens"] == sum(r.completion_tokens for r in requests)
    # `kiln cost` meters each agent apart, and `kiln sessions show` names the children.
    cost = subprocess.run([KILN, "cost", "--json"], capture_output=True, text=True, timeout=60)
    roles = {line["role"] for line in json.loads(cost.stdout)["models"]}
    assert roles == {"main", "agent explore"}, cost.stdout
    shown = subprocess.run(
        [KILN, "sessions", "show", result["session_id"]], capture_output=True, text=True, timeout=60
    ).stdout
    assert "agent explore (a1) answered: REPORT-" in shown and "agent explore (a2)" in shown


def test_a_writing_childs_changes_are_taken_as_one_step_or_left(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", REPO)
    child = [
        {"tool_calls": [call("write_file", path="NOTES.md", content="add adds\n")],
         "when": "TASK-W"},
        finish("Wrote NOTES.md.", "TASK-W"),
    ]  # fmt: skip
    taking = [
        {"tool_calls": [call("agent", agent="general", task="TASK-W: write NOTES.md")],
         "when": "PARENT"},
        *child,
        {"tool_calls": [call("agent", take="a1")], "when": "PARENT"},
        finish("Took the notes.", "PARENT"),
    ]  # fmt: skip
    with ScriptedServer(taking) as server:
        events = kiln(repo, server, "PARENT: add NOTES.md with a line about add")
    assert events[-1]["files_changed"] == ["NOTES.md"], events[-1]
    done = of(events, "subagent_finished")[0]
    assert done["files"] == ["NOTES.md"] and done["status"] in ("done", "unverified")
    taken = [e for e in of(events, "tool_call_finished") if e["name"] == "agent"][-1]
    assert taken["ok"] and "Applied a1's changes: NOTES.md" in taken["output"]
    assert of(events, "checkpointed")  # the take is a step of its own: /undo takes it back

    leaving = [taking[0], *child, finish("Left them.", "PARENT")]
    with ScriptedServer(leaving) as server:
        events = kiln(repo, server, "PARENT: add NOTES.md with a line about add")
    assert events[-1]["files_changed"] == [], events[-1]


def test_a_claude_code_definition_is_offered_and_held_to_its_tools(tmp_path: Path) -> None:
    reviewer = (
        "---\nname: reviewer\ndescription: Reviews code for bugs.\ntools: Read, Grep\n"
        "permissionMode: bypassPermissions\n---\nYou review code. Report bugs only.\n"
    )
    repo = make_git_repo(tmp_path / "repo", {**REPO, ".claude/agents/reviewer.md": reviewer})
    script = [
        {"tool_calls": [call("agent", agent="reviewer", task="TASK-R: review calc.py")],
         "when": "PARENT"},
        {"tool_calls": [call("edit_file", path="calc.py", old_text="a + b", new_text="a - b")],
         "when": "TASK-R"},
        finish("REPORT-R: no bugs.", "TASK-R"),
        finish("Reviewed.", "PARENT"),
    ]  # fmt: skip
    with ScriptedServer(script) as server:
        events = kiln(repo, server)
        requests = server.chat_requests
    parent_tools = {t["function"]["name"]: t for t in requests[0].body["tools"]}
    assert (
        "reviewer" in parent_tools["agent"]["function"]["parameters"]["properties"]["agent"]["enum"]
    )
    child = next(r for r in requests if "TASK-R" in json.dumps(r.body["messages"][:2]))
    assert {t["function"]["name"] for t in child.body["tools"]} == {"read_file", "search", "finish"}
    assert "You review code. Report bugs only." in child.body["messages"][0]["content"]
    asked = [r for r in requests if "TASK-R" in json.dumps(r.body["messages"][:2])]
    told = json.dumps(asked[1].body["messages"][-1])  # what its edit_file call came back as
    assert "edit_file" in told and "finish, read_file, search" in told
    assert "permissionMode: not granted" in " ".join(events[-1]["notes"])
    assert events[-1]["files_changed"] == [] and (repo / "calc.py").read_text() == REPO["calc.py"]


def test_a_child_cannot_spend_past_the_parents_budget(tmp_path: Path) -> None:
    paths.user_config_file().parent.mkdir(parents=True, exist_ok=True)
    paths.user_config_file().write_text(
        "[limits]\nbudget_usd = 0.003\n[models.main.prices]\ninput = 1.0\noutput = 1.0\n"
    )
    repo = make_git_repo(tmp_path / "repo", REPO)
    looking = {"tool_calls": [call("search", pattern="add")], "when": "TASK-$"}
    script = [
        {"tool_calls": [call("agent", agent="explore", task="TASK-$: look everywhere")],
         "when": "PARENT"},
        *[looking] * 6,
        finish("found", "TASK-$"),
        finish("done", "PARENT"),
    ]  # fmt: skip
    with ScriptedServer(script) as server:
        events = kiln(repo, server)
    finished = of(events, "subagent_finished")[0]
    # The parent's first request fitted the budget; the child's requests passed it.
    assert finished["status"] == "limit" and finished["steps"] >= 1, finished
    assert events[-1]["stop_reason"] == "dollar_budget", events[-1]


def test_a_cancel_while_children_run_leaves_no_container(tmp_path: Path) -> None:
    import docker

    repo = make_git_repo(tmp_path / "repo", REPO)
    slow = {"tool_calls": [call("search", pattern="add")], "stream_delay_s": 2.0}
    script = [
        {"tool_calls": [call("agent", agent="explore", task="TASK-A: look"),
                        call("agent", agent="explore", task="TASK-B: look")], "when": "PARENT"},
        {**slow, "when": "TASK-A"},
        {**slow, "when": "TASK-B"},
    ]  # fmt: skip
    with ScriptedServer(script) as server:
        proc = subprocess.Popen(
            [KILN, "run", PARENT, "--repo", str(repo), "--approval", "full-auto",
             "--output-format", "stream-json", "--base-url", server.base_url, "--model", "m"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(server.chat_requests) < 3:
            time.sleep(0.05)
        assert len(server.chat_requests) == 3  # the parent's, then both children's
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    client = docker.from_env()
    mine = {"label": f"kiln.pid={proc.pid}"}

    def left() -> list[Any]:
        """The SDK lists, then inspects each: one removed in between is gone, ask again."""
        while True:
            try:
                return list(client.containers.list(all=True, filters=mine))
            except docker.errors.NotFound:
                continue

    deadline = time.monotonic() + 60  # removal is detached (sandbox/reaper.py): waited for
    while left() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert left() == []


def test_children_are_offered_only_to_a_model_that_reads_on_its_own(tmp_path: Path) -> None:
    paths.user_config_file().parent.mkdir(parents=True, exist_ok=True)
    paths.user_config_file().write_text("[models.main]\nsmall_model = true\n")
    repo = make_git_repo(tmp_path / "repo", REPO)
    with ScriptedServer([finish("nothing", "")]) as server:
        kiln(repo, server, "what does calc.py hold?")
        tools = {t["function"]["name"] for t in server.chat_requests[0].body.get("tools", [])}
    assert "agent" not in tools


def test_a_child_starts_no_children_and_writes_only_its_own_workspace(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", REPO)
    script = [
        {"tool_calls": [call("agent", agent="general", task="TASK-H: do it")], "when": "PARENT"},
        {"tool_calls": [call("agent", agent="general", task="TASK-H2: and again"),
                        call("write_file", path="../outside.txt", content="x")], "when": "TASK-H"},
        finish("could not", "TASK-H"),
        finish("nothing", "PARENT"),
    ]  # fmt: skip
    with ScriptedServer(script) as server:
        events = kiln(repo, server)
        requests = server.chat_requests
    child = [r for r in requests if "TASK-H" in json.dumps(r.body["messages"][:2])]
    assert "agent" not in {t["function"]["name"] for t in child[0].body["tools"]}
    told = json.dumps(child[1].body["messages"][-2:])
    assert "Call one of them" in told  # told its own tools: a child of a child never starts
    assert len(of(events, "subagent_started")) == 1
    assert not (tmp_path / "outside.txt").exists()


def test_subagent_hooks_block_a_child_by_its_type_and_hear_each_end(tmp_path: Path) -> None:
    record = tmp_path / "stopped.json"
    paths.user_config_file().parent.mkdir(parents=True, exist_ok=True)
    paths.user_config_file().write_text(
        '[[hooks.SubagentStart]]\nmatcher = "general"\n'
        'command = "echo no writing helpers here >&2; exit 2"\n'
        f'[[hooks.SubagentStop]]\ncommand = "cat > {record}"\n'
    )
    repo = make_git_repo(tmp_path / "repo", REPO)
    script = [
        {"tool_calls": [call("agent", agent="general", task="TASK-G: change it"),
                        call("agent", agent="explore", task="TASK-E: look")], "when": "PARENT"},
        finish("REPORT-E", "TASK-E"),
        finish("done", "PARENT"),
    ]  # fmt: skip
    with ScriptedServer(script) as server:
        events = kiln(repo, server)
    results = [e for e in of(events, "tool_call_finished") if e["name"] == "agent"]
    assert not results[0]["ok"]
    assert (
        "SubagentStart hook blocked" in results[0]["output"]
        and "no writing helpers" in results[0]["output"]
    )
    assert results[1]["ok"] and [e["name"] for e in of(events, "subagent_started")] == ["explore"]
    stopped = json.loads(record.read_text())
    assert stopped["hook_event_name"] == "SubagentStop" and stopped["agent_type"] == "explore"
    assert stopped["last_assistant_message"] == "REPORT-E"


def test_cost_says_what_each_kind_of_child_spent() -> None:
    from agent.commands import _agents_cost
    from agent.events import RunStatus, SubagentFinished, Usage

    ended = [
        SubagentFinished("a1", "explore", RunStatus.ANSWERED, usage=Usage(1000, 0, 0, 100), cost_usd=0.01),
        SubagentFinished("a2", "explore", RunStatus.ANSWERED, usage=Usage(500, 0, 0, 50), cost_usd=0.02),
        SubagentFinished("a3", "general", RunStatus.DONE, usage=Usage(10, 0, 0, 1), cost_usd=None),
    ]  # fmt: skip
    assert _agents_cost(list(ended)) == [
        "  of which agent explore ×2: 1,650 tokens, $0.0300",
        "  of which agent general ×1: 11 tokens, price unknown",
    ]


def test_acp_shows_a_child_as_a_tool_call_of_its_own() -> None:
    pytest.importorskip("acp")
    from agent.acp.updates import Translator
    from agent.events import RunStatus, SubagentFinished, SubagentStarted

    translator = Translator("/repo")
    (started,) = translator.updates(SubagentStarted("a1", "explore", "TASK: where is add?"))
    (ended,) = translator.updates(
        SubagentFinished("a1", "explore", RunStatus.ANSWERED, "in calc.py")
    )
    assert started.tool_call_id == "a1" and started.kind == "search"
    assert started.title == "agent explore: TASK: where is add?"
    assert ended.tool_call_id == "a1" and ended.status == "completed"
    assert ended.content[0].content.text == "in calc.py"
