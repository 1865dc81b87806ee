"""The strict OpenAI chat-completions server: each rule refused when broken, kept when kept."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.strict import StrictServer
from tests.strict.talk import message, post, sse_data

CHAT = "/chat/completions"
USER = [{"role": "user", "content": "fix the failing test please"}]
TOOL = {
    "type": "function",
    "function": {"name": "read_file", "parameters": {"type": "object", "properties": {}}},
}
SCRIPT = [{"text": "one"}, {"text": "two"}, {"text": "three"}]


def ask(model: str, **extra: Any) -> dict[str, Any]:
    return {"model": model, "messages": USER, **extra}


def test_a1_max_tokens_refused_max_completion_tokens_kept() -> None:
    with StrictServer("openai", SCRIPT) as server:
        refused = post(server, CHAT, ask("gpt-5", max_tokens=100))
        kept = post(server, CHAT, ask("gpt-5", max_completion_tokens=100))
        old = post(server, CHAT, ask("gpt-4.1", max_tokens=100))
    assert refused.status_code == 400
    assert refused.json() == {
        "error": {
            "message": "Unsupported parameter: 'max_tokens' is not supported with this model. "
            "Use 'max_completion_tokens' instead.",
            "type": "invalid_request_error",
            "param": "max_tokens",
            "code": "unsupported_parameter",
        }
    }
    assert kept.status_code == 200 and old.status_code == 200
    assert [(r.rule, r.status) for r in server.refusals] == [("A1", 400)]
    # A refusal consumes no turn: the first reply is the first turn.
    assert kept.json()["choices"][0]["message"]["content"] == "one"


@pytest.mark.parametrize(("raw", "shown"), [("0", "0"), ("0.0", "0.0"), ("0.2", "0.2")])
def test_a2_temperature_echoed_as_sent(raw: str, shown: str) -> None:
    with StrictServer("openai", SCRIPT) as server:
        body = (
            '{"model": "gpt-5", "temperature": %s, "messages": [{"role": "user", "content": "x"}]}'
        )
        refused = httpx.post(
            server.base_url + CHAT,
            content=body % raw,
            headers={"content-type": "application/json"},
        )
        kept = post(server, CHAT, ask("gpt-5", temperature=1))
    assert refused.status_code == 400
    assert refused.json()["error"] == {
        "message": f"Unsupported value: 'temperature' does not support {shown} with this model. "
        "Only the default (1) value is supported.",
        "type": "invalid_request_error",
        "param": "temperature",
        "code": "unsupported_value",
    }
    assert kept.status_code == 200


def test_a3_temperature_free_while_effort_is_none() -> None:
    with StrictServer("openai", SCRIPT) as server:
        kept = post(server, CHAT, ask("gpt-5.1", temperature=0.2))
        refused = post(server, CHAT, ask("gpt-5.1", temperature=0.2, reasoning_effort="low"))
    assert kept.status_code == 200
    assert refused.status_code == 400 and "'temperature' does not support 0.2" in message(refused)


def test_a4_effort_values_per_model() -> None:
    with StrictServer("openai", SCRIPT) as server:
        refused = post(server, CHAT, ask("gpt-5.1", reasoning_effort="minimal"))
        kept = post(server, CHAT, ask("gpt-5", reasoning_effort="minimal"))
        xhigh = post(server, CHAT, ask("gpt-5.2", reasoning_effort="xhigh"))
        o_series = post(server, CHAT, ask("o3", reasoning_effort="none"))
    assert refused.status_code == 400
    assert refused.json()["error"] == {
        "message": "Unsupported value: 'minimal' is not supported with the 'gpt-5.1' model. "
        "Supported values are: 'none', 'low', 'medium', and 'high'.",
        "type": "invalid_request_error",
        "param": "reasoning_effort",
        "code": "unsupported_value",
    }
    assert kept.status_code == 200 and xhigh.status_code == 200
    assert o_series.status_code == 400
    assert "'low', 'medium', and 'high'" in message(o_series)


def test_a5_function_tools_with_effort_on_gpt_5_4() -> None:
    with StrictServer("openai", SCRIPT) as server:
        refused = post(server, CHAT, ask("gpt-5.4", tools=[TOOL], reasoning_effort="low"))
        no_effort = post(server, CHAT, ask("gpt-5.4", tools=[TOOL]))
        none = post(server, CHAT, ask("gpt-5.4", tools=[TOOL], reasoning_effort="none"))
        no_tools = post(server, CHAT, ask("gpt-5.4", reasoning_effort="high"))
    assert refused.status_code == 400
    assert refused.json()["error"] == {
        "message": "Function tools with reasoning_effort are not supported for gpt-5.4 in "
        "/v1/chat/completions. Please use /v1/responses instead.",
        "type": "invalid_request_error",
        "param": "reasoning_effort",
        "code": None,
    }
    assert [no_effort.status_code, none.status_code, no_tools.status_code] == [200, 200, 200]


def test_a6_gpt_5_6_needs_effort_none_sent_with_tools() -> None:
    with StrictServer("openai", SCRIPT) as server:
        refused = post(server, CHAT, ask("gpt-5.6-terra", tools=[TOOL]))
        kept = post(server, CHAT, ask("gpt-5.6-terra", tools=[TOOL], reasoning_effort="none"))
    assert refused.status_code == 400
    assert message(refused) == (
        "Function tools with reasoning_effort are not supported for gpt-5.6-terra in "
        "/v1/chat/completions. To use function tools, use /v1/responses or set "
        "reasoning_effort to 'none'."
    )
    assert kept.status_code == 200


def test_a7_usage_with_reasoning_and_cached_tokens_streamed_last() -> None:
    script = [{"text": "one", "reasoning": "think hard now"}, {"text": "two"}]
    with StrictServer("openai", script) as server:
        first = post(
            server,
            CHAT,
            ask("gpt-5", stream=True, stream_options={"include_usage": True}),
        )
        longer = [*USER, {"role": "assistant", "content": "one"}, {"role": "user", "content": "go"}]
        second = post(server, CHAT, {"model": "gpt-5", "messages": longer})
    chunks = sse_data(first)
    assert chunks[-1] == "[DONE]"
    last = chunks[-2]
    assert last["choices"] == []
    usage = last["usage"]
    assert usage["completion_tokens_details"]["reasoning_tokens"] == 3  # think hard now
    assert usage["completion_tokens"] == 4  # one + the reasoning
    assert all("reasoning_content" not in c["choices"][0]["delta"] for c in chunks[:-2])
    assert all(c.get("usage") is None for c in chunks[:-2])
    cached = second.json()["usage"]["prompt_tokens_details"]["cached_tokens"]
    assert cached == usage["prompt_tokens"] > 0
    assert [u.raw for u in server.usage_reported] == [usage, second.json()["usage"]]
    assert server.usage_reported[1].cached == cached
    # gpt-5 reasons at its default effort even when the script gives no reasoning
    assert second.json()["usage"]["completion_tokens_details"]["reasoning_tokens"] > 0


def test_a8_tool_calls_answered() -> None:
    call = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    asked = [*USER, {"role": "assistant", "content": None, "tool_calls": [call]}]
    with StrictServer("openai", SCRIPT) as server:
        unanswered = post(server, CHAT, {"model": "gpt-5", "messages": [*asked, *USER]})
        orphan = post(
            server,
            CHAT,
            {
                "model": "gpt-5",
                "messages": [*USER, {"role": "tool", "tool_call_id": "x", "content": "r"}],
            },
        )
        answered = post(
            server,
            CHAT,
            {
                "model": "gpt-5",
                "messages": [*asked, {"role": "tool", "tool_call_id": "call_1", "content": "r"}],
            },
        )
    assert unanswered.status_code == 400
    assert message(unanswered) == (
        "An assistant message with 'tool_calls' must be followed by tool messages responding to "
        "each 'tool_call_id'. The following tool_call_ids did not have response messages: call_1"
    )
    assert orphan.status_code == 400
    assert orphan.json()["error"]["param"] == "messages.[1].role"
    assert "must be a response to a preceeding message with 'tool_calls'" in message(orphan)
    assert answered.status_code == 200


def test_b1_responses_only_models_refused_on_chat() -> None:
    with StrictServer("openai-responses", SCRIPT) as server:
        refused = post(server, CHAT, ask("gpt-5-codex"))
        kept = post(server, "/responses", {"model": "gpt-5-codex", "input": "hi"})
    assert refused.status_code == 404
    assert refused.json() == {
        "error": {
            "message": "This model is only supported in v1/responses and not in v1/chat/completions.",
            "type": "invalid_request_error",
            "param": "model",
            "code": None,
        }
    }
    assert kept.status_code == 200
    assert server.refusals[0].rule == "B1" and server.model == "gpt-5-codex"


def test_tool_calls_streamed_in_fragments_and_the_models_list() -> None:
    script = [{"tool_calls": [{"name": "read_file", "arguments": {"path": "calc.py"}}]}]
    with StrictServer("openai", script, model="gpt-5-mini") as server:
        chunks = sse_data(post(server, CHAT, ask("gpt-5-mini", stream=True)))
        models = httpx.get(server.base_url + "/models").json()
    calls = [c["choices"][0]["delta"].get("tool_calls") for c in chunks[:-1] if c["choices"]]
    head = next(c for c in calls if c)[0]
    assert head["id"] == "call_0_0" and head["function"]["name"] == "read_file"
    arguments = "".join(c[0]["function"]["arguments"] for c in calls if c)
    assert arguments == '{"path": "calc.py"}'
    assert chunks[-2]["choices"][0]["finish_reason"] == "tool_calls"
    assert models["data"][0]["id"] == "gpt-5-mini"
    assert server.refusals == [] and server.turns_served == 1
