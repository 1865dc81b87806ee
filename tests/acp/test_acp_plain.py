"""Must show: a plain JSON-RPC client (not the SDK) drives `kiln acp` through one task with
the scripted model and the real Docker sandbox: session/update notifications arrive, the
edit's permission is answered allow_once, the repository changes only after the final
apply permission, and the prompt's answer carries stopReason end_turn."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agent.llm.scripted.server import ScriptedServer
from tests.acp.plain_acp import PlainAcpClient
from tests.conftest import make_git_repo
from tests.scripted import BUGGY_REPO, FIX_SCRIPT

INITIALIZE = {
    "protocolVersion": 1,
    "clientCapabilities": {
        "fs": {"readTextFile": False, "writeTextFile": False},
        "terminal": False,
    },
    "clientInfo": {"name": "plain-test-client", "version": "1"},
}


def updates(seen: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [
        m["params"]["update"]
        for m in seen
        if m.get("method") == "session/update" and m["params"]["update"]["sessionUpdate"] == kind
    ]


def test_one_task_with_a_permission_and_the_final_apply(docker_ready: None, tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", BUGGY_REPO)
    original = (repo / "calc.py").read_text()
    with ScriptedServer(FIX_SCRIPT) as server, open(tmp_path / "stderr", "wb") as stderr:
        client = PlainAcpClient("--base-url", server.base_url, "--model", "scripted", stderr=stderr)
        started = client.request("initialize", INITIALIZE)
        assert started["protocolVersion"] == 1
        assert started["agentCapabilities"]["loadSession"] is True
        early: list[dict[str, Any]] = []
        new = {"cwd": str(repo), "mcpServers": []}
        session_id = client.request("session/new", new, early)["sessionId"]
        assert early == []  # no update about a session the client does not know yet
        prompt_id = client.start_request(
            "session/prompt",
            {"sessionId": session_id, "prompt": [{"type": "text", "text": "fix add"}]},
        )
        seen: list[dict[str, Any]] = []
        asked: list[dict[str, Any]] = []
        while True:
            message = client.receive()
            if message.get("id") == prompt_id and "method" not in message:
                break
            seen.append(message)
            if message.get("method") == "session/request_permission":
                asked.append(message)
                if len(asked) == 2:  # the final apply: nothing written before it is allowed
                    assert (repo / "calc.py").read_text() == original
                client.answer(
                    message, {"outcome": {"outcome": "selected", "optionId": "allow_once"}}
                )
        assert message["result"]["stopReason"] == "end_turn", message
        assert (repo / "calc.py").read_text() == "def add(a, b):\n    return a + b\n"
        assert client.close() == 0
    lines = client.lines
    assert lines and all(json.loads(line)["jsonrpc"] == "2.0" for line in lines)

    edit, apply = asked
    assert [o["kind"] for o in edit["params"]["options"]] == [
        "allow_once", "allow_always", "reject_once", "reject_always",
    ]  # fmt: skip
    started_calls = {u["toolCallId"]: u for u in updates(seen, "tool_call")}
    edit_call = started_calls[edit["params"]["toolCall"]["toolCallId"]]
    assert edit_call["kind"] == "edit" and edit_call["status"] == "pending"
    assert edit_call["content"][0] == {
        "type": "diff", "path": f"{repo}/calc.py", "oldText": "a - b", "newText": "a + b",
    }  # fmt: skip
    apply_call = started_calls[apply["params"]["toolCall"]["toolCallId"]]
    diff = apply_call["content"][0]
    assert diff["type"] == "diff" and diff["path"] == str(repo / "calc.py")
    assert diff["oldText"] == original and diff["newText"].endswith("return a + b\n")
    assert "-    return a - b" in apply_call["rawInput"]["diff"]

    assert updates(seen, "available_commands_update")[0]["availableCommands"][0]["name"] == "mode"
    assert "Let me look." in "".join(
        u["content"]["text"] for u in updates(seen, "agent_message_chunk")
    )
    assert {u["kind"] for u in started_calls.values()} >= {"read", "edit", "execute", "think"}
    statuses: dict[str, list[str]] = {}
    for u in updates(seen, "tool_call_update"):
        if "status" in u:
            statuses.setdefault(u["toolCallId"], []).append(u["status"])
    assert statuses[edit_call["toolCallId"]] == ["in_progress", "completed"]
    assert statuses[apply_call["toolCallId"]] == ["completed"]
    assert updates(seen, "plan")[0]["entries"] == [
        {"content": "fix add", "priority": "medium", "status": "in_progress"}
    ]
    usage = updates(seen, "usage_update")
    assert usage and usage[-1]["size"] > 0 and usage[-1]["used"] > 0
    meta = message["result"]["_meta"]["kiln"]
    assert message["result"]["usage"]["outputTokens"] > 0 and meta["stop_reason"] == "done"


def test_a_bad_session_new_is_one_sentence_and_the_agent_goes_on(tmp_path: Path) -> None:
    client = PlainAcpClient()
    client.request("initialize", INITIALIZE)
    request_id = client.start_request("session/new", {"cwd": str(tmp_path), "mcpServers": []})
    answer = client.receive()
    assert (
        answer["id"] == request_id
        and "is not inside a git repository; run `git init`" in answer["error"]["message"]
    )
    assert answer["error"]["data"] == {"exit_code": 2}
    again = client.start_request("initialize", INITIALIZE)  # still serving
    assert client.receive()["id"] == again
    assert client.close() == 0
    assert all(json.loads(line)["jsonrpc"] == "2.0" for line in client.lines)


def test_cancel_while_a_permission_is_pending(docker_ready: None, tmp_path: Path) -> None:
    """The spec's order: session/cancel, then the client answers the pending request
    `cancelled`; the prompt ends with stopReason cancelled and nothing was edited."""
    repo = make_git_repo(tmp_path / "repo", BUGGY_REPO)
    script = [FIX_SCRIPT[2], {"text": "never asked for"}]  # the edit, which asks
    with ScriptedServer(script) as server:
        client = PlainAcpClient("--base-url", server.base_url, "--model", "scripted")
        client.request("initialize", INITIALIZE)
        session_id = client.request("session/new", {"cwd": str(repo), "mcpServers": []})[
            "sessionId"
        ]
        prompt_id = client.start_request(
            "session/prompt", {"sessionId": session_id, "prompt": [{"type": "text", "text": "go"}]}
        )
        seen: list[dict[str, Any]] = []
        while (message := client.receive()).get("method") != "session/request_permission":
            seen.append(message)
        client.send({"method": "session/cancel", "params": {"sessionId": session_id}})
        client.answer(message, {"outcome": {"outcome": "cancelled"}})
        while not ((answer := client.receive()).get("id") == prompt_id and "method" not in answer):
            seen.append(answer)
        assert answer["result"]["stopReason"] == "cancelled"
        assert server.turns_served == 1
        assert client.close() == 0
    assert (repo / "calc.py").read_text() == BUGGY_REPO["calc.py"]
    assert not [m for m in seen if m.get("method") == "session/request_permission"]
    updates = [m["params"]["update"] for m in seen if m.get("method") == "session/update"]
    edit = next(u for u in updates if u["sessionUpdate"] == "tool_call")
    closed = [u for u in updates if u["sessionUpdate"] == "tool_call_update"]
    assert [(u["toolCallId"], u["status"]) for u in closed] == [(edit["toolCallId"], "failed")]


def test_an_apply_over_your_own_edit_is_refused_in_one_sentence(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = make_git_repo(tmp_path / "repo", BUGGY_REPO)
    with ScriptedServer(FIX_SCRIPT) as server:
        client = PlainAcpClient("--base-url", server.base_url, "--model", "scripted")
        client.request("initialize", INITIALIZE)
        session_id = client.request("session/new", {"cwd": str(repo), "mcpServers": []})[
            "sessionId"
        ]
        prompt_id = client.start_request(
            "session/prompt", {"sessionId": session_id, "prompt": [{"type": "text", "text": "x"}]}
        )
        seen: list[dict[str, Any]] = []
        while not (
            (message := client.receive()).get("id") == prompt_id and "method" not in message
        ):
            seen.append(message)
            if message.get("method") == "session/request_permission":
                if "apply the changes" in message["params"]["toolCall"]["title"]:
                    (repo / "calc.py").write_text("# mine\n")  # the person edits meanwhile
                client.answer(
                    message, {"outcome": {"outcome": "selected", "optionId": "allow_once"}}
                )
        assert message["result"]["stopReason"] == "end_turn"
        assert client.close() == 0
    assert (repo / "calc.py").read_text() == "# mine\n"  # kept, not overwritten
    said = "".join(u["content"]["text"] for u in updates(seen, "agent_message_chunk"))
    assert "/apply writes them later." in said
    assert updates(seen, "tool_call_update")[-1]["status"] == "failed"


def test_cancel_while_the_apply_is_asked(docker_ready: None, tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", BUGGY_REPO)
    with ScriptedServer(FIX_SCRIPT) as server:
        client = PlainAcpClient("--base-url", server.base_url, "--model", "scripted")
        client.request("initialize", INITIALIZE)
        session_id = client.request("session/new", {"cwd": str(repo), "mcpServers": []})[
            "sessionId"
        ]
        prompt_id = client.start_request(
            "session/prompt", {"sessionId": session_id, "prompt": [{"type": "text", "text": "x"}]}
        )
        while not (
            (message := client.receive()).get("id") == prompt_id and "method" not in message
        ):
            if message.get("method") != "session/request_permission":
                continue
            if "apply the changes" not in message["params"]["toolCall"]["title"]:
                client.answer(
                    message, {"outcome": {"outcome": "selected", "optionId": "allow_once"}}
                )
                continue
            client.send({"method": "session/cancel", "params": {"sessionId": session_id}})
            client.answer(message, {"outcome": {"outcome": "cancelled"}})
        assert message["result"]["stopReason"] == "cancelled"
        # the session goes on: /diff still shows the changes kept in the sandbox
        seen: list[dict[str, Any]] = []
        answer = client.request(
            "session/prompt",
            {"sessionId": session_id, "prompt": [{"type": "text", "text": "/diff"}]},
            seen,
        )
        assert answer["stopReason"] == "end_turn"
        assert client.close() == 0
    assert (repo / "calc.py").read_text() == BUGGY_REPO["calc.py"]
    said = "".join(u["content"]["text"] for u in updates(seen, "agent_message_chunk"))
    assert "+    return a + b" in said


def test_attempts_runs_the_request_and_keeps_the_attempt_with_evidence(
    docker_ready: None, tmp_path: Path
) -> None:
    """`/attempts 2 fix add` from an editor: both attempts shown as tool calls of their own,
    the one whose tests pass taken, the prompt's answer the run's."""
    from agent.settings import paths

    paths.user_config_file().parent.mkdir(parents=True, exist_ok=True)
    paths.user_config_file().write_text("[agents]\nmax_parallel = 1\n\n[limits]\nmax_steps = 1\n")
    repo = make_git_repo(tmp_path / "repo", BUGGY_REPO)

    def attempt(body: str) -> dict[str, Any]:
        edit = {"name": "edit_file", "arguments": {
            "path": "calc.py", "old_text": "a - b", "new_text": body}}  # fmt: skip
        return {"tool_calls": [edit, {"name": "finish", "arguments": {"summary": body}}]}

    with ScriptedServer([attempt("a * b"), attempt("a + b")]) as server:
        client = PlainAcpClient("--base-url", server.base_url, "--model", "scripted")
        client.request("initialize", INITIALIZE)
        session_id = client.request("session/new", {"cwd": str(repo), "mcpServers": []})[
            "sessionId"
        ]
        text = [{"type": "text", "text": "/attempts 2 fix add"}]
        prompt_id = client.start_request(
            "session/prompt", {"sessionId": session_id, "prompt": text}
        )
        seen: list[dict[str, Any]] = []
        while True:
            message = client.receive()
            if message.get("id") == prompt_id and "method" not in message:
                break
            seen.append(message)
            if message.get("method") == "session/request_permission":
                client.answer(
                    message, {"outcome": {"outcome": "selected", "optionId": "allow_once"}}
                )
        assert client.close() == 0
    assert message["result"]["_meta"]["kiln"]["stop_reason"] == "done", message
    children = [u for u in updates(seen, "tool_call") if u["title"].startswith("agent general")]
    assert len(children) == 2
    said = "".join(u["content"]["text"] for u in updates(seen, "agent_message_chunk"))
    assert "attempt 2" in said and "(kept)" in said.split("attempt 2", 1)[1]
