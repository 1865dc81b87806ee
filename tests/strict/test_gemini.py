"""The strict Gemini 3 OpenAI-compatible server: thought signatures (D1, D2) and efforts (D3)."""

from __future__ import annotations

from typing import Any

from tests.strict import StrictServer
from tests.strict.talk import post, sse_data

CHAT = "/chat/completions"
USER = {"role": "user", "content": "fix it"}
SCRIPT: list[dict[str, Any]] = [
    {
        "tool_calls": [
            {"name": "read_file", "arguments": {"path": "a.py"}},
            {"name": "read_file", "arguments": {"path": "b.py"}},
        ]
    },
    {"text": "Done."},
    {"text": "Spare."},
]


def ask(messages: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"model": "gemini-3-pro-preview", "messages": messages, **extra}


def answered(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    results = [{"role": "tool", "tool_call_id": c["id"], "content": "x"} for c in calls]
    return [USER, {"role": "assistant", "content": None, "tool_calls": calls}, *results]


def test_d1_signature_rides_on_the_first_call_and_must_come_back() -> None:
    with StrictServer("gemini", SCRIPT) as server:
        assert server.base_url.endswith("/v1beta/openai")
        calls = post(server, CHAT, ask([USER])).json()["choices"][0]["message"]["tool_calls"]
        stripped = [{k: v for k, v in c.items() if k != "extra_content"} for c in calls]
        refused = post(server, CHAT, ask(answered(stripped)))
        kept = post(server, CHAT, ask(answered(calls)))
        # an earlier turn (before the last user message) is not checked
        later = post(
            server, CHAT, ask([*answered(stripped), {"role": "assistant", "content": "ok"}, USER])
        )
    assert calls[0]["extra_content"]["google"]["thought_signature"]
    assert "extra_content" not in calls[1]
    assert refused.status_code == 400
    assert refused.json() == [
        {
            "error": {
                "code": 400,
                "message": "Function call is missing a thought_signature in functionCall parts. This is "
                "required for tools to work correctly, and missing thought_signature may lead to degraded "
                "model performance. Additional data, function call `default_api:read_file` , position 2. "
                "Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.",
                "status": "INVALID_ARGUMENT",
            }
        }
    ]
    assert kept.status_code == 200 and later.status_code == 200
    assert [r.rule for r in server.refusals] == ["D1"]


def test_d2_altered_signature_refused_and_the_dummy_passes() -> None:
    with StrictServer("gemini", SCRIPT) as server:
        calls = post(server, CHAT, ask([USER])).json()["choices"][0]["message"]["tool_calls"]
        altered = [
            {**calls[0], "extra_content": {"google": {"thought_signature": "AAAA"}}},
            calls[1],
        ]
        refused = post(server, CHAT, ask(answered(altered)))
        dummy = [
            {
                **calls[0],
                "extra_content": {
                    "google": {"thought_signature": "skip_thought_signature_validator"}
                },
            },
            calls[1],
        ]
        kept = post(server, CHAT, ask(answered(dummy)))
    assert (
        refused.status_code == 400
        and refused.json()[0]["error"]["message"] == "Corrupted thought signature."
    )
    assert kept.status_code == 200


def test_text_reply_carries_its_signature_when_streamed() -> None:
    with StrictServer("gemini", SCRIPT[1:]) as server:
        chunks = sse_data(post(server, CHAT, ask([USER], stream=True)))
    last = chunks[-2]["choices"][0]
    assert last["finish_reason"] == "stop"
    assert last["delta"]["extra_content"]["google"]["thought_signature"]


def test_d3_reasoning_effort_values() -> None:
    with StrictServer("gemini", SCRIPT[1:]) as server:
        refused = post(
            server,
            CHAT,
            {**ask([USER], reasoning_effort="minimal"), "model": "gemini-3-flash-preview"},
        )
        kept = post(server, CHAT, ask([USER], reasoning_effort="low"))
    assert refused.status_code == 400
    assert refused.json() == [
        {
            "error": {
                "code": 400,
                "message": "Invalid reasoning_effort: minimal. Valid values are: high, low, medium, none",
                "status": "INVALID_ARGUMENT",
            }
        }
    ]
    assert kept.status_code == 200
    assert kept.json()["usage"]["completion_tokens_details"]["reasoning_tokens"] > 0
