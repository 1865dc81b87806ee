"""The strict Kimi server: reasoning on every tool-call message (F1), temperature (F2),
usage in choices[0].usage (F3)."""

from __future__ import annotations

from typing import Any

from tests.strict import StrictServer
from tests.strict.talk import post, sse_data

CHAT = "/chat/completions"
USER = {"role": "user", "content": "fix it"}
SCRIPT: list[dict[str, Any]] = [
    {"reasoning": "Read it", "tool_calls": [{"name": "read_file", "arguments": {"path": "a.py"}}]},
    {"text": "Done."},
    {"text": "Spare."},
]


def test_f1_every_tool_call_message_keeps_its_reasoning() -> None:
    with StrictServer("kimi", SCRIPT) as server:
        message = post(server, CHAT, {"model": "kimi-k2-thinking", "messages": [USER]}).json()[
            "choices"
        ][0]["message"]
        result = {"role": "tool", "tool_call_id": message["tool_calls"][0]["id"], "content": "x"}
        bare = {k: v for k, v in message.items() if k != "reasoning_content"}
        # an earlier turn's tool-call message is checked too
        history = [USER, bare, result, {"role": "assistant", "content": "ok"}, USER]
        refused = post(server, CHAT, {"model": "kimi-k2-thinking", "messages": history})
        kept = post(
            server, CHAT, {"model": "kimi-k2-thinking", "messages": [USER, message, result]}
        )
    assert refused.status_code == 400
    assert refused.json() == {
        "error": {
            "message": "thinking is enabled but reasoning_content is missing in assistant tool call message at index 1",
            "type": "invalid_request_error",
        }
    }
    assert kept.status_code == 200


def test_f2_temperature_fixed_on_k2_5() -> None:
    with StrictServer("kimi", SCRIPT[1:], model="kimi-k2.5") as server:
        refused = post(server, CHAT, {"model": "kimi-k2.5", "messages": [USER], "temperature": 0.6})
        kept = post(server, CHAT, {"model": "kimi-k2.5", "messages": [USER], "temperature": 1})
        off = post(
            server,
            CHAT,
            {
                "model": "kimi-k2.5",
                "messages": [USER],
                "temperature": 0.6,
                "thinking": {"type": "disabled"},
            },
        )
    assert refused.status_code == 400
    assert (
        refused.json()["error"]["message"]
        == "invalid temperature: only 1 is allowed for this model"
    )
    assert kept.status_code == 200 and off.status_code == 200


def test_f3_usage_in_the_last_chunks_choice() -> None:
    with StrictServer("kimi", SCRIPT[1:]) as server:
        chunks = sse_data(
            post(server, CHAT, {"model": "kimi-k2-thinking", "messages": [USER], "stream": True})
        )
        again = sse_data(
            post(
                server,
                CHAT,
                {
                    "model": "kimi-k2-thinking",
                    "messages": [USER, {"role": "assistant", "content": "Done."}, USER],
                    "stream": True,
                },
            )
        )
    assert chunks[-1] == "[DONE]"
    last = chunks[-2]
    assert "usage" not in last
    usage = last["choices"][0]["usage"]
    assert set(usage) == {"prompt_tokens", "completion_tokens", "total_tokens", "cached_tokens"}
    assert all("usage" not in c for c in chunks[:-1])
    assert again[-2]["choices"][0]["usage"]["cached_tokens"] > 0
    assert [u.raw for u in server.usage_reported] == [usage, again[-2]["choices"][0]["usage"]]
