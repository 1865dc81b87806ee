"""Small models: one JSON tool call per reply, its shape enforced by the server."""

from __future__ import annotations

from pathlib import Path

from agent.llm.base import Message, ModelProfile
from agent.llm.factory import create_client
from agent.llm.scripted.server import ScriptedServer
from agent.llm.text_protocol import TextProtocolClient
from agent.llm.usage_log import LoggedUsageClient
from tests.llm.streams import TOOLS, USER, collect

READ = '{"name": "read_file", "arguments": {"path": "a.py"}}'


async def test_each_reply_must_be_one_call_of_an_offered_tool() -> None:
    turns = [{"text": READ}, {"text": '{"name": "run", "arguments": {"command": "ls"}}'}]
    with ScriptedServer(turns) as server:
        profile = ModelProfile(
            base_url=server.base_url, model="m", tool_protocol="text", small_model=True
        )
        client = create_client(profile, env={})
        assert isinstance(client, TextProtocolClient) and client.style == "json"
        first = await collect(client)
        [call] = first.completion.message.tool_calls
        history = [
            *USER,
            first.completion.message,
            Message("tool", "print(1)", tool_call_id=call.id, name="read_file"),
        ]
        second = await collect(client, history)
        await client.aclose()
    assert (call.name, call.arguments) == ("read_file", {"path": "a.py"})
    assert [c.name for c in second.completion.message.tool_calls] == ["run"]
    body = server.requests[0].body
    assert "tools" not in body
    assert body["response_format"]["type"] == "json_object"
    variants = body["response_format"]["schema"]["anyOf"]
    assert [v["properties"]["name"] for v in variants] == [{"const": t.name} for t in TOOLS]
    assert variants[1]["properties"]["arguments"] == TOOLS[1].parameters
    assert "Each reply is one tool call, a JSON object" in body["messages"][0]["content"]
    # History is written as the model was asked to write: bare JSON, results in tags.
    later = server.requests[1].body["messages"]
    assert later[2] == {"role": "assistant", "content": READ}
    assert later[3] == {"role": "user", "content": "<tool_response>\nprint(1)\n</tool_response>"}


def test_big_models_keep_fenced_calls_and_a_server_log_wraps_the_client(tmp_path: Path) -> None:
    base = ModelProfile(base_url="http://127.0.0.1:1/v1", model="m", tool_protocol="text")
    client = create_client(base, env={})
    assert isinstance(client, TextProtocolClient) and client.style == "fenced"
    logged = create_client(
        ModelProfile(base_url="http://127.0.0.1:1/v1", server_log=str(tmp_path / "s.log")), env={}
    )
    assert isinstance(logged, LoggedUsageClient) and logged.log == tmp_path / "s.log"
