"""The OpenAI-compatible backend against the scripted server over real sockets."""

from __future__ import annotations

import json

import pytest

from agent.llm.base import Message, ModelProfile, TextChunk
from agent.llm.openai_compat import OpenAICompatClient
from agent.llm.scripted.server import ScriptedServer
from tests.llm.streams import TOOLS, USER, collect, openai_client


async def test_streams_text_in_pieces_and_reports_true_usage() -> None:
    text = "I will look at the failing test first, then fix it."
    with ScriptedServer([{"text": text}, {"text": "Done."}]) as server:
        client = openai_client(server.base_url)
        first = await collect(client)
        history = [*USER, first.completion.message, Message("user", "go on")]
        second = await collect(client, history)
        await client.aclose()
    assert first.text == text == first.completion.message.content
    assert len([e for e in first.events if isinstance(e, TextChunk)]) > 3
    sent = server.requests
    assert sent[0].body["stream"] is True and sent[0].body["stream_options"] == {
        "include_usage": True
    }
    u1, u2 = first.completion.usage, second.completion.usage
    assert (u1.uncached_input, u1.cached_input, u1.output) == (
        sent[0].prompt_tokens,
        0,
        sent[0].completion_tokens,
    )
    assert u2.cached_input == sent[1].cached_tokens == sent[0].prompt_tokens
    assert u2.uncached_input == sent[1].prompt_tokens - sent[0].prompt_tokens > 0
    assert first.completion.finish_reason == "stop" and first.completion.ttft_s is not None


async def test_several_native_tool_calls_in_one_turn() -> None:
    calls = [
        {"name": "read_file", "arguments": {"path": "src/dates.py", "start_line": 10}},
        {"name": "run", "arguments": {"command": "pytest -q tests/test_dates.py"}},
        {
            "name": "update_plan",
            "arguments": {"steps": [{"title": "fix", "status": "in_progress"}]},
        },
    ]
    with ScriptedServer([{"text": "Looking.", "tool_calls": calls}]) as server:
        client = openai_client(server.base_url)
        got = await collect(client)
        await client.aclose()
    message = got.completion.message
    assert [(c.name, c.arguments) for c in message.tool_calls] == [
        (c["name"], c["arguments"]) for c in calls
    ]
    assert [c.id for c in message.tool_calls] == ["call_0_0", "call_0_1", "call_0_2"]
    assert not any(c.recovered_from_text for c in message.tool_calls)
    assert got.completion.finish_reason == "tool_calls"
    tools_sent = server.requests[0].body["tools"]
    assert [t["function"]["name"] for t in tools_sent] == [t.name for t in TOOLS]


async def test_history_with_tool_results_is_sent_in_openai_shape() -> None:
    with ScriptedServer(
        [{"tool_calls": [{"name": "run", "arguments": {"command": "ls"}}]}, {"text": "ok"}]
    ) as server:
        client = openai_client(server.base_url)
        first = await collect(client)
        call = first.completion.message.tool_calls[0]
        history = [
            *USER,
            first.completion.message,
            Message("tool", "a.py", tool_call_id=call.id, name="run"),
        ]
        await collect(client, history)
        await client.aclose()
    sent = server.requests[1].body["messages"]
    assert sent[2]["tool_calls"][0]["function"] == {
        "name": "run",
        "arguments": json.dumps({"command": "ls"}),
    }
    assert sent[3] == {"role": "tool", "tool_call_id": call.id, "content": "a.py"}


async def test_reasoning_text_is_streamed_separately() -> None:
    with ScriptedServer(
        [{"reasoning": "The off-by-one is in the loop.", "text": "Fixing."}]
    ) as server:
        client = openai_client(server.base_url)
        got = await collect(client)
        await client.aclose()
    assert got.reasoning == "The off-by-one is in the loop."
    assert got.completion.message.content == "Fixing."


@pytest.mark.parametrize(
    "quirks", [["no_usage"], ["no_ids"], ["comments", "empty_choices", "no_done"]]
)
async def test_tolerates_server_quirks(quirks: list[str]) -> None:
    script = {
        "quirks": quirks,
        "turns": [
            {
                "text": "Hello there.",
                "tool_calls": [
                    {"name": "run", "arguments": {"command": "make test"}},
                    {"name": "read_file", "arguments": {"path": "Makefile"}},
                ],
            }
        ],
    }
    with ScriptedServer(script) as server:
        client = openai_client(server.base_url)
        got = await collect(client)
        await client.aclose()
    calls = got.completion.message.tool_calls
    assert [c.name for c in calls] == ["run", "read_file"]
    assert len({c.id for c in calls}) == 2 and all(c.id for c in calls)
    assert got.text == "Hello there."
    usage = got.completion.usage
    if "no_usage" in quirks:  # estimated from characters, never zero
        assert usage.uncached_input > 0 and usage.output > 0
    else:
        assert usage.output == server.requests[0].completion_tokens


async def test_base_url_without_v1_and_model_discovery() -> None:
    with ScriptedServer({"model": "qwen2.5-coder", "turns": [{"text": "hi"}]}) as server:
        client = OpenAICompatClient(
            ModelProfile(base_url=f"http://127.0.0.1:{server.port}", model=""), env={}
        )
        got = await collect(client)
        await client.aclose()
    assert got.text == "hi"
    assert [r.path for r in server.requests] == ["/v1/models", "/v1/chat/completions"]
    assert server.requests[1].body["model"] == "qwen2.5-coder"


async def test_api_key_comes_from_the_named_variable_or_kiln_api_key() -> None:
    with ScriptedServer([{"text": "a"}, {"text": "b"}, {"text": "c"}]) as server:
        named = ModelProfile(base_url=server.base_url, model="m", api_key_env="DEEPSEEK_API_KEY")
        for env in (
            {"DEEPSEEK_API_KEY": "sk-named", "KILN_API_KEY": "sk-kiln"},
            {"KILN_API_KEY": "sk-kiln"},
            {},
        ):
            client = OpenAICompatClient(named, env=env)
            await collect(client)
            await client.aclose()
    auth = [r.headers.get("authorization") for r in server.requests]
    assert auth == ["Bearer sk-named", "Bearer sk-kiln", None]


async def test_each_sample_carries_a_seed_of_its_own() -> None:
    # A server that keeps prompt states may restore the seed saved with one: without a
    # seed per request, the samples of a cached prompt repeat word for word.
    with ScriptedServer([{"text": "a"}, {"text": "b"}, {"text": "c"}]) as server:
        client = openai_client(server.base_url)
        for temperature in (0.8, 0.8, 0.0):
            events = client.stream(USER, [], temperature=temperature)
            _ = [e async for e in events]
        await client.aclose()
    bodies = [r.body for r in server.chat_requests]
    assert bodies[0]["seed"] != bodies[1]["seed"]
    assert "seed" not in bodies[2]  # the likeliest reply needs none
