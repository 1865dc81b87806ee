"""`kiln acp` driven by the ACP SDK's own client side (no editor), against the scripted model
and the real Docker sandbox: thoughts, an MCP server the client names in session/new
(asked before each call), rejections that reach the model, a refused final apply that
writes nothing, a mode switch, session/cancel mid-command, and session/load afterwards."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import acp
from acp.schema import (
    AllowedOutcome,
    DeniedOutcome,
    EnvVariable,
    McpServerStdio,
    RequestPermissionResponse,
)

from agent.llm.scripted.server import ScriptedServer
from agent.settings import paths
from tests.acp.plain_acp import KILN
from tests.batch.scenario import leftovers
from tests.conftest import make_git_repo
from tests.mcp.mcp_fixtures import HANDWRITTEN, calls_logged

NOTES = "pots are fired in a kiln\n"
SCRIPT: list[dict[str, Any]] = [
    # the first prompt
    {
        "reasoning": "The glossary knows the word.",
        "text": "Checking the glossary.",
        "tool_calls": [{"name": "mcp__glossary__lookup", "arguments": {"word": "pot"}}],
    },
    {"tool_calls": [{"name": "mcp__glossary__lookup", "arguments": {"word": "kiln"}}]},
    {
        "tool_calls": [
            {"name": "write_file", "arguments": {"path": "notes.txt", "content": "rejected\n"}}
        ]
    },
    {
        "tool_calls": [
            {"name": "write_file", "arguments": {"path": "notes.txt", "content": "a pot\n"}}
        ]
    },
    {"tool_calls": [{"name": "finish", "arguments": {"summary": "notes written"}}]},
    # the second prompt, cancelled while its command runs
    {"tool_calls": [{"name": "run", "arguments": {"command": "sleep 60"}}]},
]


class RecordingClient:
    """An ACP client that answers permissions from a list and keeps every update."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.asked: list[Any] = []
        self.updates: list[Any] = []
        self.command_running = asyncio.Event()

    async def request_permission(
        self, session_id: str, tool_call: Any, options: list[Any], **_: Any
    ) -> RequestPermissionResponse:
        self.asked.append(tool_call)
        choice = self.answers.pop(0)
        if choice == "cancelled":
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id=choice)
        )

    async def session_update(self, session_id: str, update: Any, **_: Any) -> None:
        self.updates.append(update)
        if getattr(update, "kind", None) == "execute" and update.session_update == "tool_call":
            self.command_running.set()

    def on_connect(self, conn: Any) -> None:
        pass

    def of(self, kind: str) -> list[Any]:
        return [u for u in self.updates if u.session_update == kind]


async def test_the_sdk_client_through_two_prompts_and_a_load(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = make_git_repo(tmp_path / "repo", {"notes.txt": NOTES})
    log = tmp_path / "glossary.log"
    glossary = McpServerStdio(
        name="glossary",
        command=sys.executable,
        args=[str(HANDWRITTEN)],
        env=[EnvVariable(name="MCP_LOG", value=str(log))],
    )
    client = RecordingClient("allow_always", "reject_once", "allow_once", "reject_once")
    paths.config_dir().mkdir(parents=True, exist_ok=True)  # priced, so the cost is known
    paths.user_config_file().write_text("[models.main.prices]\ninput = 3.0\noutput = 15.0\n")
    with ScriptedServer(SCRIPT) as server:
        flags = ("acp", "--base-url", server.base_url, "--model", "scripted")
        async with acp.spawn_agent_process(client, KILN, *flags, env=dict(os.environ)) as (
            conn,
            process,
        ):
            await conn.initialize(protocol_version=acp.PROTOCOL_VERSION)
            new = await conn.new_session(cwd=str(repo), mcp_servers=[glossary])
            assert new.modes is not None and new.modes.current_mode_id == "ask"
            first = await conn.prompt(
                session_id=new.session_id, prompt=[acp.text_block("write what a pot is")]
            )
            assert first.stop_reason == "end_turn"
            assert first.usage is not None and first.usage.output_tokens > 0
            assert first.field_meta is not None and first.field_meta["kiln"]["cost_usd"] > 0
            cost = client.of("usage_update")[-1].cost
            assert cost is not None and cost.currency == "USD"
            assert cost.amount == first.field_meta["kiln"]["cost_usd"]
            await conn.set_session_mode(session_id=new.session_id, mode_id="auto-edit")
            second = asyncio.ensure_future(
                conn.prompt(session_id=new.session_id, prompt=[acp.text_block("wait a minute")])
            )
            await asyncio.wait_for(client.command_running.wait(), 60)
            await conn.cancel(session_id=new.session_id)
            assert (await asyncio.wait_for(second, 30)).stop_reason == "cancelled"
        assert process.returncode == 0
        # the sandbox was closed when the client went away (its removal is detached)
        assert leftovers(f"kiln.session={new.session_id}") == ([], [])
        requests = [r.body for r in server.chat_requests]

    # allow_always covers the second lookup; reject_once's answer reaches the model
    assert [a["params"]["arguments"]["word"] for a in calls_logged(log)] == ["pot", "kiln"]
    tool_results = [m["content"] for m in requests[4]["messages"] if m["role"] == "tool"]
    assert tool_results[:2] == [
        "glossary: pot means a kiln-fired clay vessel",
        "glossary: kiln means a kiln-fired clay vessel",
    ]
    assert tool_results[2:] == [
        "The person rejected `write notes.txt`. Do not retry it unchanged.",
        "Overwrote notes.txt (1 lines).",
    ]
    assert [c.title for c in client.asked[:3]] == [
        'call mcp__glossary__lookup {"word": "pot"}', "write notes.txt", "write notes.txt",
    ]  # fmt: skip
    writes = [u.tool_call_id for u in client.of("tool_call") if u.title.startswith("write_file")]
    statuses = {
        w: [u.status for u in client.of("tool_call_update") if u.tool_call_id == w and u.status]
        for w in writes
    }
    assert list(statuses.values()) == [["failed"], ["in_progress", "completed"]]  # rejected, run
    # the final apply was refused: nothing reached the working tree
    apply = client.asked[3]
    assert apply.kind == "edit" and "apply the changes" in apply.title
    assert (repo / "notes.txt").read_text() == NOTES
    thoughts = "".join(u.content.text for u in client.of("agent_thought_chunk"))
    assert "The glossary knows the word." in thoughts
    assert [u.current_mode_id for u in client.of("current_mode_update")] == ["auto-edit"]
    assert client.of("available_commands_update")

    # session/load: the stored conversation comes back as updates before the answer
    again = RecordingClient()
    async with acp.spawn_agent_process(again, KILN, "acp", env=dict(os.environ)) as (conn, _):
        await conn.initialize(protocol_version=acp.PROTOCOL_VERSION)
        await conn.load_session(cwd=str(repo), session_id=new.session_id, mcp_servers=[])
        await asyncio.sleep(0.5)  # notifications are handled as they arrive
    said = [u.content.text for u in again.of("user_message_chunk")]
    assert any("write what a pot is" in text for text in said)
    assert any("wait a minute" in text for text in said)
    assert [u.title for u in again.of("tool_call")][:2] == [
        "mcp__glossary__lookup pot", "mcp__glossary__lookup kiln",
    ]  # fmt: skip
