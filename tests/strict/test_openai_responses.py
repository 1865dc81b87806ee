"""The strict Responses API server: each rule refused when broken, kept when kept, and a
stateless conversation (store false, encrypted reasoning passed back) that goes through."""

from __future__ import annotations

from typing import Any

import httpx

from tests.strict import StrictServer
from tests.strict.talk import message, post, sse_events

RESPONSES = "/responses"
TOOL = {"type": "function", "name": "read_file", "parameters": {"type": "object", "properties": {}}}
CALL_SCRIPT = [
    {
        "text": "Looking.",
        "reasoning": "I should read it",
        "tool_calls": [{"name": "read_file", "arguments": {"path": "a.py"}}],
    },
    {"text": "Done."},
]


def stateless(**extra: Any) -> dict[str, Any]:
    return {
        "model": "gpt-5-codex",
        "store": False,
        "include": ["reasoning.encrypted_content"],
        "tools": [TOOL],
        **extra,
    }


def first_turn(server: StrictServer) -> tuple[list[dict[str, Any]], httpx.Response]:
    user = [{"role": "user", "content": "fix it"}]
    reply = post(server, RESPONSES, stateless(input=user))
    assert reply.status_code == 200, reply.text
    return user, reply


def test_stateless_conversation_with_encrypted_reasoning_goes_through() -> None:
    with StrictServer("openai-responses", CALL_SCRIPT) as server:
        user, reply = first_turn(server)
        output = reply.json()["output"]
        assert [i["type"] for i in output] == ["reasoning", "message", "function_call"]
        assert output[0]["encrypted_content"].startswith("gAAAAA")
        call = output[2]
        answer = {"type": "function_call_output", "call_id": call["call_id"], "output": "x = 1"}
        second = post(server, RESPONSES, stateless(input=[*user, *output, answer]))
    assert second.status_code == 200, second.text
    assert second.json()["output"][-1]["content"][0]["text"] == "Done."
    assert server.refusals == [] and server.turns_served == 2
    # the passed-back items are a prefix of the second prompt: cached
    assert server.usage_reported[1].cached >= server.usage_reported[0].prompt > 0


def test_b3_chat_parameters_refused() -> None:
    with StrictServer("openai-responses", CALL_SCRIPT) as server:
        refused = post(
            server, RESPONSES, {"model": "gpt-5", "messages": [{"role": "user", "content": "x"}]}
        )
        max_tokens = post(server, RESPONSES, {"model": "gpt-5", "input": "x", "max_tokens": 10})
        kept = post(server, RESPONSES, {"model": "gpt-5", "input": "x", "max_output_tokens": 10})
    assert refused.status_code == 400
    assert refused.json()["error"] == {
        "message": "Unsupported parameter: 'messages'. In the Responses API, this parameter has "
        "moved to 'input'. Try again with the new parameter. See the API documentation for more "
        "information: https://platform.openai.com/docs/api-reference/responses/create.",
        "type": "invalid_request_error",
        "param": "messages",
        "code": "unsupported_parameter",
    }
    assert max_tokens.status_code == 400 and "moved to 'max_output_tokens'" in message(max_tokens)
    assert kept.status_code == 200


def test_b4_chat_shaped_tool_refused() -> None:
    chat_tool = {"type": "function", "function": {"name": "read_file", "parameters": {}}}
    with StrictServer("openai-responses", CALL_SCRIPT) as server:
        refused = post(
            server, RESPONSES, {"model": "gpt-5", "input": "x", "tools": [TOOL, chat_tool]}
        )
        kept = post(server, RESPONSES, {"model": "gpt-5", "input": "x", "tools": [TOOL]})
    assert refused.status_code == 400
    assert refused.json()["error"] == {
        "message": "Missing required parameter: 'tools[1].name'.",
        "type": "invalid_request_error",
        "param": "tools[1].name",
        "code": "missing_required_parameter",
    }
    assert kept.status_code == 200


def test_b5_calls_and_outputs_paired_by_call_id() -> None:
    call = {"type": "function_call", "call_id": "call_9", "name": "read_file", "arguments": "{}"}
    output = {"type": "function_call_output", "call_id": "call_9", "output": "ok"}
    user = {"role": "user", "content": "x"}
    with StrictServer("openai-responses", CALL_SCRIPT) as server:
        lone_output = post(server, RESPONSES, stateless(input=[user, output]))
        lone_call = post(server, RESPONSES, stateless(input=[user, call]))
        kept = post(server, RESPONSES, stateless(input=[user, call, output]))
    assert lone_output.status_code == 400
    assert (
        lone_output.json()["error"]["message"]
        == "No tool call found for function call output with call_id call_9."
    )
    assert lone_output.json()["error"]["param"] == "input"
    assert lone_call.status_code == 400
    assert message(lone_call) == "No tool output found for function call call_9."
    assert kept.status_code == 200


def test_b6_reasoning_by_id_alone_is_not_found_when_not_stored() -> None:
    with StrictServer("openai-responses", [*CALL_SCRIPT, {"text": "more"}]) as server:
        user, reply = first_turn(server)
        output = reply.json()["output"]
        bare = {k: v for k, v in output[0].items() if k != "encrypted_content"}
        answer = {"type": "function_call_output", "call_id": output[2]["call_id"], "output": "1"}
        refused = post(server, RESPONSES, stateless(input=[*user, bare, *output[1:], answer]))
        alone = post(server, RESPONSES, stateless(input=[*user, output[0]]))
        kept = post(server, RESPONSES, stateless(input=[*user, *output, answer]))
    rs = output[0]["id"]
    assert refused.status_code == 404
    assert refused.json()["error"] == {
        "message": f"Item with id '{rs}' not found. Items are not persisted when `store` is set "
        "to false. Try again with `store` set to true, or remove this item from your input.",
        "type": "invalid_request_error",
        "param": "input",
        "code": None,
    }
    assert alone.status_code == 400
    assert (
        message(alone)
        == f"Item '{rs}' of type 'reasoning' was provided without its required following item."
    )
    assert kept.status_code == 200
    assert [r.rule for r in server.refusals] == ["B6", "B6"]


def test_b6_stored_items_may_be_referenced_by_id() -> None:
    with StrictServer("openai-responses", CALL_SCRIPT) as server:
        user = [{"role": "user", "content": "x"}]
        output = post(server, RESPONSES, {"model": "gpt-5", "tools": [TOOL], "input": user}).json()[
            "output"
        ]
        by_id = [{"type": "item_reference", "id": output[0]["id"]}, *output[1:]]
        answer = {"type": "function_call_output", "call_id": output[2]["call_id"], "output": "1"}
        kept = post(
            server, RESPONSES, {"model": "gpt-5", "tools": [TOOL], "input": [*user, *by_id, answer]}
        )
    assert "encrypted_content" not in output[0]
    assert kept.status_code == 200


def test_b11_altered_or_foreign_encrypted_content_refused() -> None:
    with (
        StrictServer("openai-responses", CALL_SCRIPT) as server,
        StrictServer("openai-responses", CALL_SCRIPT) as other,
    ):
        user, reply = first_turn(server)
        output = reply.json()["output"]
        foreign = first_turn(other)[1].json()["output"][0]
        answer = {"type": "function_call_output", "call_id": output[2]["call_id"], "output": "1"}
        altered = {**output[0], "encrypted_content": output[0]["encrypted_content"][:-6] + "AAAA=="}
        refused = post(server, RESPONSES, stateless(input=[*user, altered, *output[1:], answer]))
        from_elsewhere = post(
            server, RESPONSES, stateless(input=[*user, foreign, *output[1:], answer])
        )
    assert refused.status_code == 400
    error = refused.json()["error"]
    sealed = altered["encrypted_content"]
    assert error == {
        "message": f"The encrypted content {sealed[:4]}...{sealed[-4:]} could not be verified.",
        "type": "invalid_request_error",
        "param": None,
        "code": "invalid_encrypted_content",
    }
    assert (
        from_elsewhere.status_code == 400
        and from_elsewhere.json()["error"]["code"] == "invalid_encrypted_content"
    )


def test_a4_and_b10_effort_and_temperature() -> None:
    with StrictServer("openai-responses", CALL_SCRIPT) as server:
        effort = post(
            server,
            RESPONSES,
            {"model": "gpt-5.1", "input": "x", "reasoning": {"effort": "minimal"}},
        )
        temperature = post(server, RESPONSES, {"model": "gpt-5", "input": "x", "temperature": 0.2})
        kept = post(server, RESPONSES, {"model": "gpt-5.1", "input": "x", "temperature": 0.2})
    assert effort.status_code == 400 and effort.json()["error"]["param"] == "reasoning.effort"
    assert "Supported values are: 'none', 'low', 'medium', and 'high'." in message(effort)
    assert temperature.status_code == 400
    assert (
        message(temperature)
        == "Unsupported parameter: 'temperature' is not supported with this model."
    )
    assert kept.status_code == 200


def test_b7_b8_event_stream_and_usage() -> None:
    with StrictServer("openai-responses", CALL_SCRIPT) as server:
        reply = post(
            server,
            RESPONSES,
            stateless(input="fix it", stream=True, reasoning={"effort": "high", "summary": "auto"}),
        )
    events = sse_events(reply)
    assert "[DONE]" not in reply.text
    names = [name for name, _ in events]
    assert all(name == data["type"] for name, data in events)
    assert [data["sequence_number"] for _, data in events] == list(range(len(events)))
    assert names[:2] == ["response.created", "response.in_progress"]
    assert names[-1] == "response.completed"
    for expected in (
        "response.reasoning_summary_text.delta",
        "response.content_part.added",
        "response.output_text.delta",
        "response.output_text.done",
        "response.content_part.done",
        "response.function_call_arguments.delta",
        "response.function_call_arguments.done",
    ):
        assert expected in names
    done = [d["item"] for n, d in events if n == "response.output_item.done"]
    assert [i["type"] for i in done] == ["reasoning", "message", "function_call"]
    assert done[0]["encrypted_content"] and done[0]["summary"][0]["text"] == "I should read it"
    args = "".join(d["delta"] for n, d in events if n == "response.function_call_arguments.delta")
    assert args == done[2]["arguments"] == '{"path": "a.py"}'
    usage = events[-1][1]["response"]["usage"]
    assert set(usage) == {
        "input_tokens",
        "input_tokens_details",
        "output_tokens",
        "output_tokens_details",
        "total_tokens",
    }
    assert usage["output_tokens_details"]["reasoning_tokens"] == 4  # I should read it
    assert usage["total_tokens"] == usage["input_tokens"] + usage["output_tokens"]
    assert server.usage_reported[0].raw == usage


def test_b9_later_codex_models_mark_the_phase_of_their_messages() -> None:
    with StrictServer("openai-responses", CALL_SCRIPT) as server:
        said = post(server, RESPONSES, {"model": "gpt-5.3-codex", "input": "x", "tools": [TOOL]})
        earlier = post(server, RESPONSES, {"model": "gpt-5-codex", "input": "x"})
    assert said.json()["output"][1]["phase"] == "commentary"
    assert "phase" not in earlier.json()["output"][1]
