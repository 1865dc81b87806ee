"""The strict Anthropic Messages server: each rule refused when broken, kept when kept, a
thinking tool loop that goes through, the thinking stream, usage with cache read/write."""

from __future__ import annotations

from typing import Any

import httpx

from tests.strict import StrictServer
from tests.strict.talk import message, post, sse_events

MODEL = "claude-sonnet-4-5-20250929"
KEY = {"x-api-key": "test-key", "anthropic-version": "2023-06-01"}
INTERLEAVED = {**KEY, "anthropic-beta": "interleaved-thinking-2025-05-14"}
THINKING = {"type": "enabled", "budget_tokens": 2048}
USER = {"role": "user", "content": "fix the failing test"}
SCRIPT: list[dict[str, Any]] = [
    {
        "text": "Reading.",
        "reasoning": "Read calc.py first",
        "tool_calls": [{"name": "read_file", "arguments": {"path": "calc.py"}}],
    },
    {"text": "Fixed."},
    {"text": "Spare."},
]


def ask(**extra: Any) -> dict[str, Any]:
    return {"model": MODEL, "max_tokens": 4096, "messages": [USER], **extra}


def tool_loop(
    server: StrictServer, **extra: Any
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The first turn's content and the messages that answer its tool call."""
    first = post(server, "/messages", ask(thinking=THINKING, **extra), KEY)
    assert first.status_code == 200, first.text
    content = first.json()["content"]
    call = content[-1]
    result = {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": call["id"], "content": "x"}],
    }
    return content, [USER, {"role": "assistant", "content": content}, result]


def test_thinking_tool_loop_goes_through_with_the_block_passed_back() -> None:
    with StrictServer("anthropic", SCRIPT) as server:
        content, messages = tool_loop(server)
        second = post(server, "/messages", ask(thinking=THINKING, messages=messages), KEY)
    assert [b["type"] for b in content] == ["thinking", "text", "tool_use"]
    assert content[0]["thinking"] == "Read calc.py first" and content[0]["signature"]
    assert second.status_code == 200 and second.json()["content"] == [
        {"type": "text", "text": "Fixed."}
    ]
    assert server.refusals == []


def test_c11_api_key_required() -> None:
    with StrictServer("anthropic", SCRIPT) as server:
        refused = post(server, "/messages", ask(), {"anthropic-version": "2023-06-01"})
        models = httpx.get(server.base_url + "/models", headers=KEY).json()
    assert refused.status_code == 401
    assert refused.json() == {
        "type": "error",
        "error": {"type": "authentication_error", "message": "x-api-key header is required"},
    }
    assert models["data"][0]["type"] == "model" and models["data"][0]["id"] == MODEL
    assert set(models) == {"data", "has_more", "first_id", "last_id"}


def test_c1_thinking_budget() -> None:
    with StrictServer("anthropic", SCRIPT) as server:
        small = post(
            server, "/messages", ask(thinking={"type": "enabled", "budget_tokens": 1000}), KEY
        )
        over = post(server, "/messages", ask(max_tokens=2048, thinking=THINKING), KEY)
        interleaved = post(
            server, "/messages", ask(max_tokens=2048, thinking=THINKING), INTERLEAVED
        )
        kept = post(server, "/messages", ask(max_tokens=2049, thinking=THINKING), KEY)
    assert small.status_code == 400
    assert small.json() == {
        "type": "error",
        "error": {
            "type": "invalid_request_error",
            "message": "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024",
        },
    }
    assert over.status_code == 400
    assert message(over) == (
        "`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at "
        "https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size"
    )
    assert interleaved.status_code == 200 and kept.status_code == 200


def test_c2_sampling_with_thinking() -> None:
    with StrictServer("anthropic", SCRIPT) as server:
        temperature = post(server, "/messages", ask(thinking=THINKING, temperature=0.2), KEY)
        top_k = post(server, "/messages", ask(thinking=THINKING, top_k=5), KEY)
        top_p = post(server, "/messages", ask(thinking=THINKING, top_p=0.9), KEY)
        forced = post(server, "/messages", ask(thinking=THINKING, tool_choice={"type": "any"}), KEY)
        kept = post(server, "/messages", ask(thinking=THINKING, temperature=1, top_p=0.95), KEY)
        off = post(server, "/messages", ask(temperature=0.2, top_k=5), KEY)
    assert temperature.status_code == 400
    assert message(temperature) == (
        "`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at "
        "https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#important-considerations-when-using-extended-thinking"
    )
    assert top_k.status_code == 400 and message(top_k).startswith(
        "`top_k` must be unset when thinking is enabled."
    )
    assert top_p.status_code == 400 and forced.status_code == 400
    assert kept.status_code == 200 and off.status_code == 200


def test_c3_tool_loop_must_start_with_thinking() -> None:
    with StrictServer("anthropic", SCRIPT) as server:
        content, messages = tool_loop(server)
        stripped = [USER, {"role": "assistant", "content": content[1:]}, messages[2]]
        refused = post(server, "/messages", ask(thinking=THINKING, messages=stripped), KEY)
    assert refused.status_code == 400
    assert message(refused) == (
        "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`. "
        "When `thinking` is enabled, a final `assistant` message must start with a thinking block "
        "(preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include "
        "thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult "
        "our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
    )


def test_c4_altered_or_foreign_thinking_refused() -> None:
    with StrictServer("anthropic", SCRIPT) as server, StrictServer("anthropic", SCRIPT) as other:
        content, messages = tool_loop(server)
        altered = [{**content[0], "thinking": "Read calc.py second"}, *content[1:]]
        refused = post(
            server,
            "/messages",
            ask(
                thinking=THINKING,
                messages=[USER, {"role": "assistant", "content": altered}, messages[2]],
            ),
            KEY,
        )
        foreign_block = tool_loop(other)[0][0]
        foreign = post(
            server,
            "/messages",
            ask(
                thinking=THINKING,
                messages=[
                    USER,
                    {"role": "assistant", "content": [foreign_block, *content[1:]]},
                    messages[2],
                ],
            ),
            KEY,
        )
        kept = post(server, "/messages", ask(thinking=THINKING, messages=messages), KEY)
    assert refused.status_code == 400
    assert message(refused) == "messages.1.content.0: Invalid `signature` in `thinking` block"
    assert foreign.status_code == 400 and message(foreign) == message(refused)
    assert kept.status_code == 200


def test_c5_thinking_off_with_thinking_in_the_final_assistant_message() -> None:
    with StrictServer("anthropic", SCRIPT) as server:
        content, _ = tool_loop(server)
        prefill = [
            USER,
            {"role": "assistant", "content": [content[0], {"type": "text", "text": "So"}]},
        ]
        refused = post(server, "/messages", ask(messages=prefill), KEY)
        kept = post(
            server, "/messages", ask(messages=[USER, {"role": "assistant", "content": "So"}]), KEY
        )
    assert refused.status_code == 400
    assert message(refused) == (
        "messages.1.content.0: When thinking is disabled, an `assistant` message in the final position "
        "cannot contain `thinking`. To use thinking blocks, enable `thinking` in your request."
    )
    assert kept.status_code == 200


def test_c8_tool_use_and_tool_result_pairing() -> None:
    use = {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}
    said = {"role": "assistant", "content": [use]}
    with StrictServer("anthropic", SCRIPT) as server:
        unanswered = post(server, "/messages", ask(messages=[USER, said, USER]), KEY)
        stray = {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "toolu_9", "content": "x"}],
        }
        unexpected = post(
            server,
            "/messages",
            ask(messages=[USER, {"role": "assistant", "content": "hm"}, stray]),
            KEY,
        )
        late = {"role": "user", "content": [{"type": "text", "text": "here"}, result]}
        not_first = post(server, "/messages", ask(messages=[USER, said, late]), KEY)
        kept = post(
            server,
            "/messages",
            ask(messages=[USER, said, {"role": "user", "content": [result]}]),
            KEY,
        )
    assert unanswered.status_code == 400
    assert message(unanswered) == (
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1. "
        "Each `tool_use` block must have a corresponding `tool_result` block in the next message."
    )
    assert message(unexpected) == (
        "messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_9. "
        "Each `tool_result` block must have a corresponding `tool_use` block in the previous message."
    )
    assert message(not_first) == (
        "Did not find 1 tool_result block(s) at the beginning of this message. Messages following "
        "tool_use blocks must begin with a matching number of tool_result blocks."
    )
    assert kept.status_code == 200


def test_c9_output_limit_per_model() -> None:
    with StrictServer("anthropic", SCRIPT) as server:
        refused = post(server, "/messages", ask(max_tokens=204096), KEY)
        kept = post(server, "/messages", ask(max_tokens=64000), KEY)
    assert refused.status_code == 400
    assert message(refused) == (
        "max_tokens: 204096 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-5-20250929"
    )
    assert kept.status_code == 200


def test_c10_four_cache_breakpoints() -> None:
    mark = {"cache_control": {"type": "ephemeral"}}
    system = [{"type": "text", "text": f"part {i}", **mark} for i in range(4)]
    with StrictServer("anthropic", SCRIPT) as server:
        refused = post(
            server,
            "/messages",
            ask(
                system=system,
                messages=[{"role": "user", "content": [{"type": "text", "text": "x", **mark}]}],
            ),
            KEY,
        )
        kept = post(server, "/messages", ask(system=system), KEY)
    assert refused.status_code == 400
    assert message(refused) == "A maximum of 4 blocks with cache_control may be provided. Found 5."
    assert kept.status_code == 200


def test_c6_thinking_stream_and_usage_with_cache_read_and_write() -> None:
    mark = {"cache_control": {"type": "ephemeral"}}
    system = [{"type": "text", "text": "You are kiln, a coding agent. " * 20, **mark}]
    with StrictServer("anthropic", SCRIPT) as server:
        reply = post(server, "/messages", ask(system=system, thinking=THINKING, stream=True), KEY)
        events = sse_events(reply)
        again = post(server, "/messages", ask(system=system, thinking=THINKING), KEY)
    names = [n for n, _ in events]
    assert names[:2] == ["message_start", "ping"] and names[-2:] == [
        "message_delta",
        "message_stop",
    ]
    start = events[2][1]
    assert start["content_block"] == {"type": "thinking", "thinking": "", "signature": ""}
    deltas = [
        d["delta"]["type"] for n, d in events if n == "content_block_delta" and d["index"] == 0
    ]
    assert deltas[-1] == "signature_delta" and set(deltas[:-1]) == {"thinking_delta"}
    kinds = [d["content_block"]["type"] for n, d in events if n == "content_block_start"]
    assert kinds == ["thinking", "text", "tool_use"]
    assert any(
        d["delta"]["type"] == "input_json_delta" for n, d in events if n == "content_block_delta"
    )
    first = events[0][1]["message"]["usage"]
    assert first["cache_creation_input_tokens"] > 0 and first["cache_read_input_tokens"] == 0
    usage = again.json()["usage"]
    assert usage["cache_read_input_tokens"] == first["cache_creation_input_tokens"]
    assert events[-2][1]["usage"]["output_tokens"] == server.usage_reported[0].output
    assert server.usage_reported[0].reasoning == 5  # Read calc . py first
    assert server.usage_reported[1].cached == usage["cache_read_input_tokens"]


def test_redacted_thinking_passes_back_and_is_checked() -> None:
    script = [{**SCRIPT[0], "redacted_thinking": True}, SCRIPT[1], SCRIPT[2]]
    with StrictServer("anthropic", script) as server:
        content, messages = tool_loop(server)
        kept = post(server, "/messages", ask(thinking=THINKING, messages=messages), KEY)
        altered = [{"type": "redacted_thinking", "data": content[0]["data"][1:]}, *content[1:]]
        broken = [USER, {"role": "assistant", "content": altered}, messages[2]]
        refused = post(server, "/messages", ask(thinking=THINKING, messages=broken), KEY)
    assert content[0]["type"] == "redacted_thinking" and "data" in content[0]
    assert kept.status_code == 200
    assert refused.status_code == 400 and server.refusals[0].rule == "C4"


def test_count_tokens_touches_no_cache() -> None:
    mark = {"cache_control": {"type": "ephemeral"}}
    system = [{"type": "text", "text": "You are kiln. " * 20, **mark}]
    with StrictServer("anthropic", SCRIPT) as server:
        counted = post(server, "/messages/count_tokens", ask(system=system), KEY).json()
        reply = post(server, "/messages", ask(system=system), KEY).json()
    usage = reply["usage"]
    assert usage["cache_read_input_tokens"] == 0 and usage["cache_creation_input_tokens"] > 0
    total = usage["input_tokens"] + usage["cache_creation_input_tokens"]
    assert counted == {"input_tokens": total}
