"""Claude with extended thinking, through the strict Anthropic server (`tests/strict/`):
real HTTP on 127.0.0.1, thinking blocks signed by the server's HMAC, so a block kiln
altered or dropped is refused as the API refuses it (C1-C10)."""

from __future__ import annotations

import dataclasses
from typing import Any

from agent.events import Usage
from agent.llm import anthropic_thinking
from agent.llm.anthropic import AnthropicClient, MessageAssembler, to_anthropic_request
from agent.llm.base import Completion, Message, ModelProfile, ToolCall
from agent.llm.facts import facts_for
from tests.llm.streams import TOOLS, USER, collect
from tests.strict import StrictServer

MODEL = "claude-sonnet-4-5-20250929"


def profile_for(server: StrictServer, **fields: Any) -> ModelProfile:
    base = ModelProfile(
        provider="anthropic", base_url=server.base_url, model=server.model,
        api_key_env="ANTHROPIC_API_KEY", context_window=200000, max_output_tokens=32000,
    )  # fmt: skip
    return dataclasses.replace(base, **fields)


def client_for(profile: ModelProfile) -> AnthropicClient:
    return AnthropicClient(profile, env={"ANTHROPIC_API_KEY": "sk-ant"}, backoff_base_s=0.01)


def call(n: int, name: str, **arguments: Any) -> dict[str, Any]:
    return {"name": name, "arguments": arguments}


# Five requests: four tool calls, each after thinking (the third redacted), then the end.
FIX = [
    {"reasoning": "Read the code first.", "text": "Reading.",
     "tool_calls": [call(0, "read_file", path="calc.py")]},
    {"reasoning": "The sign is wrong.", "tool_calls": [call(1, "edit_file", path="calc.py",
     old_text="a - b", new_text="a + b")]},
    {"reasoning": "Hidden reasoning.", "redacted_thinking": True,
     "tool_calls": [call(2, "run", command="pytest -q")]},
    {"tool_calls": [call(3, "read_file", path="calc.py")]},
    {"reasoning": "Done.", "text": "add adds now."},
]  # fmt: skip


async def run_loop(client: AnthropicClient, turns: int) -> tuple[list[Message], list[Usage]]:
    """The loop as kiln's run drives it: each reply kept whole, each call answered."""
    history, usages = list(USER), []
    for _ in range(turns):
        got = await collect(client, history)
        reply = got.completion.message
        history.append(reply)
        usages.append(got.completion.usage)
        for made in reply.tool_calls:
            history.append(Message("tool", "ok", tool_call_id=made.id, name=made.name))
    return history, usages


async def stream(client: AnthropicClient, messages: list[Message], **options: Any) -> Message:
    events = [e async for e in client.stream(messages, TOOLS, **options)]
    completion = events[-1]
    assert isinstance(completion, Completion)
    return completion.message


async def test_a_thinking_tool_loop_over_five_requests_is_never_refused() -> None:
    with StrictServer("anthropic", FIX, model=MODEL) as server:
        client = client_for(profile_for(server, effort="high"))
        history, usages = await run_loop(client, 5)
        await client.aclose()
        requests = server.chat_requests
        reported = server.usage_reported
    assert server.refusals == []
    assert len(requests) == 5
    for request in requests:
        body = request.body
        # C1, C9: the budget below max_tokens, the sum within the model's 64k (and a
        # quarter of the window); C2: no temperature; C7: interleaved thinking's header.
        assert body["thinking"] == {"type": "enabled", "budget_tokens": 24576}
        assert body["max_tokens"] == 50000
        assert "temperature" not in body and "top_k" not in body and "tool_choice" not in body
        assert request.headers["anthropic-beta"] == "interleaved-thinking-2025-05-14"
        marks = [b for m in body["messages"] for b in m["content"] if "cache_control" in b]
        marks += [b for b in [*body["system"], *body["tools"]] if "cache_control" in b]
        assert len(marks) <= 4  # C10
    # Each reply's thinking, kept as it came and in Message.reasoning.
    replies = [m for m in history if m.role == "assistant"]
    assert replies[0].reasoning == "Read the code first."
    assert replies[0].replay_api == "anthropic" and replies[0].replay[0]["signature"]
    assert replies[2].replay[0]["type"] == "redacted_thinking" and not replies[2].reasoning
    assert replies[3].replay == () and replies[3].replay_api == ""
    # The last request carries every thinking block back unchanged, first in its turn.
    sent = [m for m in requests[-1].body["messages"] if m["role"] == "assistant"]
    for message, reply in zip(sent, replies, strict=False):
        assert message["content"][: len(reply.replay)] == list(reply.replay)
    # The meter's usage is the server's, request by request (thinking inside output).
    for got, report in zip(usages, reported, strict=True):
        assert (got.uncached_input, got.cached_input, got.cache_write, got.output) == (
            report.uncached, report.cached, report.cache_write, report.output
        )  # fmt: skip


async def test_thinking_off_sends_no_thinking_block_and_no_budget() -> None:
    with StrictServer("anthropic", FIX[:2], model=MODEL) as server:
        thinking = client_for(profile_for(server, effort="low"))
        first = (await collect(thinking)).completion.message
        await thinking.aclose()
        plain = client_for(profile_for(server))
        made = first.tool_calls[0]
        history = [*USER, first, Message("tool", "ok", tool_call_id=made.id, name=made.name)]
        second = await stream(plain, history, temperature=0.2)
        await plain.aclose()
        requests = server.chat_requests
    assert server.refusals == []
    assert requests[0].body["thinking"]["budget_tokens"] == 2048
    body = requests[1].body
    assert "thinking" not in body and body["temperature"] == 0.2  # C5: no block sent back
    assert "anthropic-beta" not in requests[1].headers
    assert all(b["type"] != "thinking" for m in body["messages"] for b in m["content"])
    assert second.replay == ()


async def test_an_altered_block_is_refused_so_kiln_sends_them_unchanged() -> None:
    with StrictServer("anthropic", FIX, model=MODEL) as server:
        client = client_for(profile_for(server, effort="medium"))
        first = (await collect(client)).completion.message
        made = first.tool_calls[0]
        block = {**first.replay[0], "thinking": first.replay[0]["thinking"] + " (edited)"}
        altered = dataclasses.replace(first, replay=(block,))
        result = Message("tool", "ok", tool_call_id=made.id, name=made.name)
        try:
            await collect(client, [*USER, altered, result])
        except Exception as exc:  # the server's 400, as one sentence
            refused = str(exc)
        await client.aclose()
    assert [r.rule for r in server.refusals] == ["C4"]
    assert "Invalid `signature`" in refused


async def test_a_turn_that_began_without_thinking_goes_without_it_c3() -> None:
    """Thinking turned on inside a tool loop whose turn began without it (/effort, a reply
    of another API): that request goes without thinking, not refused."""
    foreign = Message(
        "assistant", "", (ToolCall("toolu_x", "run", {"command": "ls"}),),
        replay=({"type": "reasoning", "encrypted_content": "e"},), replay_api="responses",
    )  # fmt: skip
    history = [*USER, foreign, Message("tool", "a.py", tool_call_id="toolu_x", name="run")]
    with StrictServer("anthropic", [{"text": "Done."}, {"text": "Next."}], model=MODEL) as server:
        client = client_for(profile_for(server, effort="high"))
        await collect(client, history)
        await collect(client, [*history, Message("assistant", "Done."), Message("user", "go")])
        await client.aclose()
        requests = server.chat_requests
    assert server.refusals == []
    assert "thinking" not in requests[0].body
    assert all(b["type"] != "reasoning" for m in requests[0].body["messages"] for b in m["content"])
    assert requests[1].body["thinking"]["type"] == "enabled"  # the person's next message


def test_the_budget_keeps_to_c1_and_c9() -> None:
    def plan(**fields: Any) -> anthropic_thinking.Thinking:
        profile = ModelProfile(provider="anthropic", model=fields.pop("model", MODEL))
        profile = dataclasses.replace(profile, context_window=200000, **fields)
        return anthropic_thinking.plan(profile, fields.get("max_output_tokens", 4096))

    assert plan(effort="low") == anthropic_thinking.Thinking(
        2048, 6144, ("interleaved-thinking-2025-05-14",)
    )
    assert plan(effort="none").budget == 0 and plan().budget == 0
    assert plan(effort="max").budget == 24576  # the nearest the model takes
    assert plan(thinking_budget=4000).budget == 4000
    # Claude Opus 4's output limit (32000) cuts the sum: the reply gives way, down to 4096
    # tokens, then the budget.
    opus = plan(model="claude-opus-4-1", effort="high", max_output_tokens=32000)
    assert (opus.budget, opus.max_tokens) == (24576, 32000)
    opus = plan(model="claude-opus-4-1", thinking_budget=30000, max_output_tokens=32000)
    assert (opus.budget, opus.max_tokens) == (32000 - 4096, 32000)
    # No thinking for a model that does not think by budget, and Claude 3.7 has no beta.
    assert plan(model="claude-3-5-haiku", effort="high").budget == 0
    assert plan(model="claude-3-7-sonnet-20250219", effort="low").betas == ()
    # A window too small for a budget of 1024 beside the reply: no thinking at all.
    small = ModelProfile(provider="anthropic", model=MODEL, effort="low", context_window=8000)
    assert anthropic_thinking.plan(small, 4096).budget == 0
    assert facts_for(MODEL).budget("high") == 24576


def test_the_stream_keeps_blocks_whole_and_in_order_c6() -> None:
    parts = MessageAssembler()
    events: list[dict[str, Any]] = [
        {"type": "message_start", "message": {"usage": {"input_tokens": 9, "output_tokens": 1}}},
        {"type": "content_block_start", "index": 0,
         "content_block": {"type": "thinking", "thinking": "", "signature": ""}},
        {"type": "content_block_delta", "index": 0,
         "delta": {"type": "thinking_delta", "thinking": "Look "}},
        {"type": "content_block_delta", "index": 0,
         "delta": {"type": "thinking_delta", "thinking": "first."}},
        {"type": "content_block_delta", "index": 0,
         "delta": {"type": "signature_delta", "signature": "c2ln"}},
        {"type": "content_block_stop", "index": 0},
        {"type": "content_block_start", "index": 1,
         "content_block": {"type": "redacted_thinking", "data": "b3BhcXVl"}},
        {"type": "content_block_stop", "index": 1},
        {"type": "content_block_start", "index": 2, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 2, "delta": {"type": "text_delta", "text": "Hi"}},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
         "usage": {"output_tokens": 40}},
        {"type": "message_stop"},
    ]  # fmt: skip
    chunks = [out for event in events for out in parts.add(event)]
    message, _ = parts.message(TOOLS)
    assert [type(c).__name__ for c in chunks] == ["ReasoningChunk", "ReasoningChunk", "TextChunk"]
    assert message.replay == (
        {"type": "thinking", "thinking": "Look first.", "signature": "c2ln"},
        {"type": "redacted_thinking", "data": "b3BhcXVl"},
    )
    assert message.reasoning == "Look first." and message.content == "Hi"
    # Thinking tokens are inside output_tokens; the API reports none apart.
    assert parts.token_usage().output == 40 and parts.token_usage().reasoning == 0
    # Sent back first in the turn, copied (a cache mark never reaches the stored blocks).
    _, wire, _ = to_anthropic_request([*USER, message], TOOLS, thinking=True)
    assert wire[1]["content"][:2] == list(message.replay)
    assert wire[1]["content"][2]["cache_control"] == {"type": "ephemeral"}
    assert all("cache_control" not in block for block in message.replay)


async def test_claude_5_thinks_adaptively_and_its_blocks_always_go_back() -> None:
    """Claude 5 thinks by itself and refuses a budget or a temperature: kiln asks adaptive
    thinking with the effort as output_config's (C7), sends no temperature even for a
    sample, and carries every block back."""
    with StrictServer("anthropic", FIX[:3], model="claude-sonnet-5") as server:
        client = client_for(profile_for(server, effort="high"))
        history, _ = await run_loop(client, 2)
        await stream(client, history, temperature=0.8)
        await client.aclose()
        requests = server.chat_requests
    assert server.refusals == []
    for request in requests:
        body = request.body
        assert body["thinking"] == {"type": "adaptive"}
        assert body["output_config"] == {"effort": "high"}
        assert "temperature" not in body and "anthropic-beta" not in request.headers
        assert body["max_tokens"] == 32000
    sent = [m for m in requests[-1].body["messages"] if m["role"] == "assistant"]
    assert [m["content"][0]["type"] for m in sent] == ["thinking", "thinking"]
