"""The Anthropic Messages backend against the scripted server."""

from __future__ import annotations

import pytest

from agent.errors import ModelError
from agent.llm.anthropic import AnthropicClient
from agent.llm.base import Message, ModelProfile
from agent.llm.scripted.server import ScriptedServer
from tests.llm.streams import TOOLS, USER, collect


def client_for(server: ScriptedServer, **env: str) -> AnthropicClient:
    profile = ModelProfile(
        provider="anthropic",
        base_url=server.base_url,
        model="claude-x",
        api_key_env="ANTHROPIC_API_KEY",
    )
    return AnthropicClient(profile, env=env, backoff_base_s=0.01)


async def test_streams_text_thinking_and_tool_use() -> None:
    calls = [
        {"name": "read_file", "arguments": {"path": "a.py"}},
        {"name": "run", "arguments": {"command": "pytest -q"}},
    ]
    turn = {"reasoning": "Check the file.", "text": "Reading it now.", "tool_calls": calls}
    with ScriptedServer([turn]) as server:
        client = client_for(server, ANTHROPIC_API_KEY="sk-ant")
        got = await collect(client)
        await client.aclose()
    assert got.text == "Reading it now." and got.reasoning == "Check the file."
    assert [(c.id, c.name, c.arguments) for c in got.completion.message.tool_calls] == [
        ("call_0_0", "read_file", {"path": "a.py"}),
        ("call_0_1", "run", {"command": "pytest -q"}),
    ]
    assert got.completion.finish_reason == "tool_calls"
    request = server.requests[0]
    assert request.path == "/v1/messages"
    assert request.headers["x-api-key"] == "sk-ant"
    assert request.headers["anthropic-version"] == "2023-06-01"
    assert got.completion.usage.output == request.completion_tokens


async def test_cache_control_marks_the_stable_prefix_and_usage_reports_reads_and_writes() -> None:
    with ScriptedServer(
        [{"tool_calls": [{"name": "run", "arguments": {"command": "ls"}}]}, {"text": "done"}]
    ) as server:
        client = client_for(server)
        first = await collect(client)
        call = first.completion.message.tool_calls[0]
        history = [
            *USER,
            first.completion.message,
            Message("tool", "a.py b.py", tool_call_id=call.id, name="run", cache_breakpoint=True),
            Message("user", "Now finish."),
        ]
        second = await collect(client, history)
        await client.aclose()
    body = server.requests[1].body
    assert body["system"] == [
        {"type": "text", "text": "You are kiln.", "cache_control": {"type": "ephemeral"}}
    ]
    assert body["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    assert all("cache_control" not in t for t in body["tools"][:-1])
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
    results = body["messages"][2]["content"]  # the tool result and the next user text merge
    assert results[0] == {
        "type": "tool_result",
        "tool_use_id": call.id,
        "content": "a.py b.py",
        "cache_control": {"type": "ephemeral"},
    }
    # The rolling breakpoint: the last turn, so the next request reads all of this one.
    assert results[1] == {
        "type": "text", "text": "Now finish.", "cache_control": {"type": "ephemeral"}
    }  # fmt: skip
    u1, u2 = first.completion.usage, second.completion.usage
    assert u1.cached_input == 0 and u1.cache_write == server.requests[0].cache_write_tokens > 0
    assert u2.cached_input == u1.cache_write  # the prefix written first is read now
    assert u2.cache_write == server.requests[1].cache_write_tokens > 0
    assert u2.prompt_total == server.requests[1].prompt_tokens


async def test_rate_limit_is_retried_and_invalid_input_corrected() -> None:
    edit = {"name": "edit_file", "arguments": {"path": "a", "old_text": "b", "new_text": "c"}}
    with ScriptedServer(
        [{"tool_calls": [edit], "fault": ["429", "invalid_tool_args"], "retry_after": 0}]
    ) as server:
        client = client_for(server)
        got = await collect(client)
        await client.aclose()
    assert len(got.retries) == 1 and got.retries[0].delay_s == 0
    assert "missing the required argument `path`" in got.completion.format_problems[0].correction


async def test_cut_stream_is_retried() -> None:
    with ScriptedServer([{"text": "a b c d e f g h i j", "fault": "cut"}]) as server:
        client = client_for(server)
        got = await collect(client)
        await client.aclose()
    assert len(got.retries) == 1 and got.text_after_last_retry == "a b c d e f g h i j"


async def test_missing_key_is_named_when_refused() -> None:
    with ScriptedServer([]) as server:
        client = client_for(server)
        with pytest.raises(ModelError, match=r"rejected the request \(400"):
            await collect(client, tools=TOOLS)
        await client.aclose()
