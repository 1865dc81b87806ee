"""The OpenAI Responses API client over real sockets: the scripted server's `/v1/responses`,
and a few fixed streams from a server of the test's own for what the script cannot say."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from agent.errors import ModelError
from agent.llm.base import (
    Completion,
    Message,
    ModelProfile,
    ReasoningChunk,
    TextChunk,
    ToolCall,
)
from agent.llm.factory import create_client
from agent.llm.openai_compat import OpenAICompatClient
from agent.llm.responses import ResponsesClient
from agent.llm.responses_wire import NOT_RUN, assistant_items, to_responses_input
from agent.llm.scripted.server import ScriptedServer, count_tokens
from tests.llm.streams import USER, collect


def responses_client(base_url: str, **profile: Any) -> ResponsesClient:
    fields = {"base_url": base_url, "model": "gpt-5-codex", **profile}
    return ResponsesClient(ModelProfile(**fields), env={}, backoff_base_s=0.01)


def _items(body: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [i for i in body["input"] if i.get("type") == kind]


async def test_the_request_speaks_responses_and_the_reply_keeps_what_goes_back() -> None:
    turn = {"reasoning": "The test names add().", "text": "I will fix add()."}
    with ScriptedServer([turn]) as server:
        client = responses_client(server.base_url, effort="high", temperature=0.2)
        got = await collect(client)
        await client.aclose()
    [sent] = server.chat_requests
    body = sent.body
    assert sent.path == "/v1/responses"
    # B2, B3: the Responses names, never chat completions' ones.
    assert body["instructions"] == "You are kiln." and body["model"] == "gpt-5-codex"
    assert body["input"] == [{"role": "user", "content": "Fix the failing test."}]
    assert body["max_output_tokens"] == 4096 and body["stream"] is True
    for chat_name in ("messages", "max_tokens", "max_completion_tokens", "reasoning_effort"):
        assert chat_name not in body
    # A reasoning model: its effort and summaries; its default temperature only (A2).
    assert body["reasoning"] == {"effort": "high", "summary": "auto"}
    assert "temperature" not in body
    # B6: nothing kept by the server; the reasoning comes back to be sent again.
    assert body["store"] is False and body["include"] == ["reasoning.encrypted_content"]
    assert body["prompt_cache_key"].startswith("kiln-")
    # B4: flat function tools, not chat's nested shape.
    tool = body["tools"][0]
    assert set(tool) == {"type", "name", "description", "parameters", "strict"}
    assert tool["name"] == "read_file" and tool["strict"] is False
    assert got.text == "I will fix add()." and got.reasoning == "The test names add()."
    assert len([e for e in got.events if isinstance(e, TextChunk)]) > 1
    assert len([e for e in got.events if isinstance(e, ReasoningChunk)]) > 1
    message = got.completion.message
    assert message.content == got.text and message.reasoning == got.reasoning
    assert message.replay_api == "responses"
    reasoning, said = message.replay
    assert reasoning["type"] == "reasoning" and reasoning["encrypted_content"]
    assert said["type"] == "message" and said["phase"] == "final_answer"
    assert got.completion.finish_reason == "stop"
    # B8: the meter's numbers are the server's.
    usage = got.completion.usage
    assert usage.uncached_input == sent.prompt_tokens and usage.cached_input == 0
    assert (
        usage.output == sent.completion_tokens
        and usage.reasoning == count_tokens(turn["reasoning"]) == 7
    )


async def test_a_fix_over_four_requests_sends_every_item_back_in_order() -> None:
    script = [
        {"reasoning": "Look first.", "tool_calls": [{"name": "read_file", "arguments": {"path": "a.py"}}]},
        {
            "reasoning": "Two things to do.",
            "text": "Editing and checking.",
            "tool_calls": [
                {"name": "edit_file", "arguments": {"path": "a.py", "old_text": "-", "new_text": "+"}},
                {"name": "run", "arguments": {"command": "pytest -q"}},
            ],
        },
        {"reasoning": "Green.", "tool_calls": [{"name": "run", "arguments": {"command": "git diff"}}]},
        {"reasoning": "Done.", "text": "add() adds now."},
    ]  # fmt: skip
    history = list(USER)
    usages = []
    with ScriptedServer(script) as server:
        client = responses_client(server.base_url)
        for _ in script:
            got = await collect(client, history)
            usages.append(got.completion.usage)
            history.append(got.completion.message)
            for call in got.completion.message.tool_calls:
                history.append(
                    Message("tool", f"ran {call.name}", tool_call_id=call.id, name=call.name)
                )
        await client.aclose()
    sent = server.chat_requests
    assert len(sent) == 4 and all(r.outcome == "ok" for r in sent)
    assert len({r.body["prompt_cache_key"] for r in sent}) == 1
    last = sent[3].body["input"]
    kinds = [i.get("type") or i["role"] for i in last]
    assert kinds == [
        "user",
        "reasoning", "function_call", "function_call_output",
        "reasoning", "message", "function_call", "function_call", "function_call_output",
        "function_call_output",
        "reasoning", "function_call", "function_call_output",
    ]  # fmt: skip
    # Kept items go back whole, without the ids only a storing server could look up (B6).
    for item in _items(sent[3].body, "reasoning") + _items(sent[3].body, "message"):
        assert "id" not in item and "status" not in item
    replies = [m for m in history if m.role == "assistant"]
    came = [k for m in replies[:3] for k in m.replay]
    assert [i["encrypted_content"] for i in _items(sent[3].body, "reasoning")] == [
        k["encrypted_content"] for k in came if k["type"] == "reasoning"
    ]
    assert _items(sent[3].body, "message")[0]["phase"] == "commentary"
    # B5: each output answers the call sent before it, by its call_id.
    calls = [i["call_id"] for i in _items(sent[3].body, "function_call")]
    outputs = [i["call_id"] for i in _items(sent[3].body, "function_call_output")]
    assert calls == outputs == ["call_0_0", "call_1_0", "call_1_1", "call_2_0"]
    assert json.loads(_items(sent[3].body, "function_call")[1]["arguments"])["path"] == "a.py"
    # The prefix only grows, so the server's cache covers all of the previous request.
    for before, after, usage in zip(sent, sent[1:], usages[1:], strict=False):
        assert usage.cached_input == after.cached_tokens == before.prompt_tokens
        assert usage.uncached_input == after.prompt_tokens - before.prompt_tokens
        assert usage.output == after.completion_tokens and usage.reasoning > 0


def test_a_message_from_another_api_sends_nothing_of_its_items() -> None:
    call = ToolCall("toolu_1", "read_file", {"path": "a.py"})
    thinking = ({"type": "thinking", "thinking": "hm", "signature": "sig"},)
    from_claude = Message("assistant", "Reading.", (call,), replay=thinking, replay_api="anthropic")
    assert assistant_items(from_claude) == [
        {"role": "assistant", "content": "Reading."},
        {"type": "function_call", "call_id": "toolu_1", "name": "read_file",
         "arguments": '{"path": "a.py"}'},
    ]  # fmt: skip


def test_every_call_answered_and_every_answer_to_a_call() -> None:
    call = ToolCall("call_1", "run", {"command": "ls"})
    orphan = Message("tool", "old output", tool_call_id="call_gone", name="run")
    messages = [
        Message("system", "You are kiln."),
        Message("user", "Fix it."),
        orphan,
        Message("assistant", "", (call,)),
        Message("user", "Stop."),
    ]
    instructions, items = to_responses_input(messages)
    assert instructions == "You are kiln."
    assert items[1] == {"role": "user", "content": "[run result]\nold output"}
    assert items[3] == {"type": "function_call_output", "call_id": "call_1", "output": NOT_RUN}
    assert items[4] == {"role": "user", "content": "Stop."}


def test_a_reasoning_item_goes_back_only_with_the_item_after_it() -> None:
    kept = (
        {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "e1"},
        {"type": "function_call", "call_id": "call_dropped"},
        {"type": "reasoning", "id": "rs_2", "summary": [], "encrypted_content": "e2"},
        {"type": "function_call", "call_id": "call_kept"},
        {"type": "reasoning", "id": "rs_3", "summary": []},
    )
    call = ToolCall("call_kept", "run", {"command": "ls"})
    items = assistant_items(Message("assistant", "", (call,), replay=kept, replay_api="responses"))
    # The first one's call was refused as malformed, the last one has nothing to send.
    assert [i["type"] for i in items] == ["reasoning", "function_call"]
    assert items[0] == {"type": "reasoning", "summary": [], "encrypted_content": "e2"}


def test_chosen_for_the_models_that_need_it_and_on_request() -> None:
    def client(model: str, wire_api: str = "auto") -> object:
        profile = ModelProfile(base_url="http://127.0.0.1:9/v1", model=model, wire_api=wire_api)
        made = create_client(profile, env={})
        return getattr(made, "base", made)  # the wire client inside adapt.py's wrapper

    assert isinstance(client("gpt-5-codex"), ResponsesClient)
    assert isinstance(client("gpt-5.1-codex-max"), ResponsesClient)
    assert isinstance(client("o3-pro"), ResponsesClient)
    assert isinstance(client("gpt-5"), OpenAICompatClient)
    assert isinstance(client("gpt-4o", "responses"), ResponsesClient)
    assert isinstance(client("gpt-5-codex", "chat"), OpenAICompatClient)


async def test_a_model_of_any_temperature_gets_the_profiles_and_no_reasoning() -> None:
    with ScriptedServer([{"text": "hi"}]) as server:
        client = responses_client(server.base_url, model="gpt-4o", temperature=0.2, effort="high")
        got = await collect(client, tools=[])
        await client.aclose()
    body = server.chat_requests[0].body
    assert body["temperature"] == 0.2 and "tools" not in body
    assert "reasoning" not in body and "include" not in body
    assert got.completion.message.replay[0]["type"] == "message"


async def test_a_cut_stream_is_tried_again() -> None:
    with ScriptedServer([{"text": "All good here.", "fault": "cut"}]) as server:
        client = responses_client(server.base_url)
        got = await collect(client)
        await client.aclose()
    assert len(got.retries) == 1 and got.text_after_last_retry == "All good here."


# --- what the script cannot say: fixed streams ------------------------------------------


def _sse(*events: dict[str, Any]) -> bytes:
    return b"".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events)


@pytest.fixture
def fixed() -> Iterator[tuple[str, list[tuple[str, bytes]]]]:
    """A server answering each POST with the next (content type, body) of its list."""
    answers: list[tuple[str, bytes]] = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            kind, data = answers.pop(0) if answers else ("application/json", b"{}")
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1", answers
    server.shutdown()
    server.server_close()


FAILED = {
    "type": "response.failed",
    "response": {"status": "failed", "error": {"code": "invalid_prompt", "message": "Bad input."}},
}


async def test_a_failed_response_is_one_sentence(fixed: tuple[str, list[Any]]) -> None:
    base_url, answers = fixed
    answers.append(("text/event-stream", _sse({"type": "response.created"}, FAILED)))
    client = responses_client(base_url)
    with pytest.raises(ModelError) as caught:
        await collect(client)
    await client.aclose()
    assert caught.value.message == (
        f"The model server at {base_url} rejected the request (400: Bad input); "
        "check the model profile."
    )


async def test_an_error_that_may_pass_is_tried_again(fixed: tuple[str, list[Any]]) -> None:
    base_url, answers = fixed
    error = {"type": "error", "code": "server_error", "message": "Try again.", "param": None}
    done = {
        "type": "response.completed",
        "response": {"status": "completed", "usage": {"input_tokens": 7, "output_tokens": 2}},
    }
    text = {"type": "response.output_text.delta", "item_id": "m", "output_index": 0, "delta": "ok"}
    answers += [("text/event-stream", _sse(error)), ("text/event-stream", _sse(text, done))]
    client = responses_client(base_url)
    got = await collect(client)
    await client.aclose()
    assert "the server reported an error mid-stream: Try again." in got.retries[0].reason
    assert got.text_after_last_retry == "ok"
    assert (got.completion.usage.uncached_input, got.completion.usage.output) == (7, 2)


async def test_a_whole_response_and_one_cut_short(fixed: tuple[str, list[Any]]) -> None:
    base_url, answers = fixed
    whole = {
        "status": "incomplete",
        "incomplete_details": {"reason": "max_output_tokens"},
        "output": [
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Par"}]},
            {"type": "function_call", "call_id": "call_9", "name": "run", "arguments": "{\"command\": \"ls\"}"},
        ],
        "usage": {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 4}, "output_tokens": 3},
    }  # fmt: skip
    answers.append(("application/json", json.dumps(whole).encode()))
    client = responses_client(base_url)
    got = await collect(client)
    await client.aclose()
    assert got.text == "Par" and got.completion.finish_reason == "length"
    assert [(c.id, c.arguments) for c in got.completion.message.tool_calls] == [
        ("call_9", {"command": "ls"})
    ]
    usage = got.completion.usage
    assert (usage.uncached_input, usage.cached_input, usage.output) == (6, 4, 3)


# --- through the strict server: what the real API refuses, refused ----------------------


async def test_a_fix_through_the_strict_server_is_never_refused() -> None:
    from tests.strict import StrictServer

    script = [
        {"reasoning": "Read it first.", "tool_calls": [{"name": "read_file", "arguments": {"path": "calc.py"}}]},
        {
            "reasoning": "It subtracts.",
            "text": "Fixing add().",
            "tool_calls": [{"name": "edit_file", "arguments": {"path": "calc.py", "old_text": "a - b", "new_text": "a + b"}}],
        },
        {"reasoning": "Check it.", "tool_calls": [{"name": "run", "arguments": {"command": "pytest -q"}}, {"name": "run", "arguments": {"command": "git diff"}}]},
        {"reasoning": "All green.", "text": "add() adds now."},
    ]  # fmt: skip
    history = list(USER)
    usages = []
    with StrictServer("openai-responses", script, model="gpt-5.3-codex") as server:
        client = responses_client(server.base_url, model=server.model, effort="high")
        for _ in script:
            got = await collect(client, history)
            usages.append(got.completion.usage)
            history.append(got.completion.message)
            for call in got.completion.message.tool_calls:
                history.append(
                    Message("tool", f"ran {call.name}", tool_call_id=call.id, name=call.name)
                )
        await client.aclose()
        refused, reported, sent = server.refusals, server.usage_reported, server.chat_requests
    assert refused == [] and len(sent) == 4 and server.turns_served == 4
    assert all(r.body["reasoning"] == {"effort": "high", "summary": "auto"} for r in sent)
    assert [i.get("type") for i in sent[3].body["input"]].count("reasoning") == 3
    # B9: the message kept with its phase, resent as it came.
    [said] = [i for i in sent[3].body["input"] if i.get("type") == "message"]
    assert said["phase"] == "commentary" and said["content"][0]["text"] == "Fixing add()."
    assert history[-1].content == "add() adds now."
    for usage, report in zip(usages, reported, strict=True):
        assert usage.uncached_input + usage.cached_input == report.prompt
        assert (usage.cached_input, usage.output, usage.reasoning) == (
            report.cached,
            report.output,
            report.reasoning,
        )
    assert sum(u.cached_input for u in usages[1:]) > 0 and all(u.reasoning for u in usages)


async def test_a_chat_client_refused_with_b1_goes_on_through_this_client() -> None:
    from agent.llm.base import Adapted
    from tests.strict import StrictServer

    script = [{"reasoning": "Read it.", "text": "Fixed."}]
    with StrictServer("openai", script, model="gpt-5-codex") as server:
        profile = ModelProfile(base_url=server.base_url, model=server.model, wire_api="chat")
        client = create_client(profile, env={})
        events = [e async for e in client.stream(USER, [])]
        await client.aclose()
        seen = [(r.path, r.status, r.refused_by) for r in server.requests]
    assert seen == [("/v1/chat/completions", 404, "B1"), ("/v1/responses", 200, None)]
    assert [e.said for e in events if isinstance(e, Adapted)] == [
        "gpt-5-codex is served on the Responses API only: kiln uses /v1/responses from now on"
    ]
    assert isinstance(getattr(client, "base", None), ResponsesClient)
    assert isinstance(events[-1], Completion) and events[-1].message.content == "Fixed."
