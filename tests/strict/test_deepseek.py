"""The strict DeepSeek server: reasoning back on tool-call turns (E3), usage shape (E4)."""

from __future__ import annotations

from typing import Any

from tests.strict import StrictServer
from tests.strict.talk import post, sse_data

USER = {"role": "user", "content": "fix the failing test " * 40}
SCRIPT: list[dict[str, Any]] = [
    {
        "reasoning": "Look at the file",
        "tool_calls": [{"name": "read_file", "arguments": {"path": "a.py"}}],
    },
    {"text": "Done."},
    {"text": "Spare."},
]


def loop(first: dict[str, Any], keep_reasoning: bool) -> list[dict[str, Any]]:
    said = {k: v for k, v in first.items() if keep_reasoning or k != "reasoning_content"}
    results = [
        {"role": "tool", "tool_call_id": c["id"], "content": "x"} for c in first["tool_calls"]
    ]
    return [USER, said, *results]


def test_e3_reasoning_content_must_come_back_in_the_tool_turn() -> None:
    with StrictServer("deepseek", SCRIPT) as server:
        first = post(
            server, "/chat/completions", {"model": "deepseek-reasoner", "messages": [USER]}
        )
        message = first.json()["choices"][0]["message"]
        refused = post(
            server,
            "/chat/completions",
            {"model": "deepseek-reasoner", "messages": loop(message, False)},
        )
        kept = post(
            server,
            "/v1/chat/completions",
            {"model": "deepseek-reasoner", "messages": loop(message, True)},
        )
        old_turn = [*loop(message, False), {"role": "assistant", "content": "ok"}, USER]
        new_turn = post(
            server, "/chat/completions", {"model": "deepseek-reasoner", "messages": old_turn}
        )
    assert message["reasoning_content"] == "Look at the file"
    assert refused.status_code == 400
    assert refused.json() == {
        "error": {
            "message": "The `reasoning_content` in the thinking mode must be passed back to the API.",
            "type": "invalid_request_error",
            "param": None,
            "code": "invalid_request_error",
        }
    }
    assert kept.status_code == 200 and new_turn.status_code == 200


def test_e3_non_thinking_chat_does_not_check() -> None:
    with StrictServer("deepseek", SCRIPT) as server:
        first = post(server, "/chat/completions", {"model": "deepseek-chat", "messages": [USER]})
        message = first.json()["choices"][0]["message"]
        kept = post(
            server,
            "/chat/completions",
            {"model": "deepseek-chat", "messages": loop(message, False)},
        )
    assert "reasoning_content" not in message  # not thinking: no reasoning said
    assert kept.status_code == 200


def test_e4_usage_with_cache_hit_and_miss_in_64_token_units() -> None:
    with StrictServer("deepseek", SCRIPT[1:]) as server:
        body = {
            "model": "deepseek-reasoner",
            "messages": [USER],
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        first = sse_data(post(server, "/chat/completions", body))
        again = post(
            server,
            "/chat/completions",
            {
                **body,
                "stream": False,
                "messages": [USER, {"role": "assistant", "content": "Done."}, USER],
            },
        )
    streamed = first[-2]["usage"]
    assert "reasoning_content" in first[1]["choices"][0]["delta"]
    assert streamed["prompt_cache_hit_tokens"] == 0
    usage = again.json()["usage"]
    assert usage["prompt_cache_hit_tokens"] % 64 == 0 and usage["prompt_cache_hit_tokens"] >= 64
    assert (
        usage["prompt_cache_hit_tokens"] + usage["prompt_cache_miss_tokens"]
        == usage["prompt_tokens"]
    )
    assert usage["completion_tokens_details"]["reasoning_tokens"] > 0
    assert server.usage_reported[1].cached == usage["prompt_cache_hit_tokens"]


def test_e2_v3_2_words_name_the_message_index() -> None:
    with StrictServer("deepseek", SCRIPT, version="v3.2") as server:
        message = post(
            server, "/chat/completions", {"model": "deepseek-reasoner", "messages": [USER]}
        )
        said = message.json()["choices"][0]["message"]
        refused = post(
            server,
            "/chat/completions",
            {"model": "deepseek-reasoner", "messages": loop(said, False)},
        )
    assert refused.status_code == 400
    assert refused.json()["error"]["message"] == (
        "Missing `reasoning_content` field in the assistant message at message index 1"
    )
    assert server.refusals[0].rule == "E2"
