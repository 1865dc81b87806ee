"""The chat-completions client as the factory makes it, against the strict provider servers
(`tests/strict/`: real HTTP on 127.0.0.1, refusing what each real server refuses): a
conversation with tool calls over four requests goes through, what the model's data asks
is sent, what must come back comes back, usage is the server's, and what kiln does not
know is adapted to once, said once."""

from __future__ import annotations

from typing import Any

import pytest

from agent.llm.adapt import AdaptingClient
from agent.llm.base import Adapted, Message, ModelClient, ModelProfile
from agent.llm.factory import create_client
from tests.llm.streams import USER, Collected, collect
from tests.strict import StrictServer

READ = {"name": "read_file", "arguments": {"path": "src/dates.py"}}
RUN = {"name": "run", "arguments": {"command": "pytest -q"}}
PLAN = {"name": "update_plan", "arguments": {"steps": [{"title": "fix", "status": "done"}]}}
# Four requests: a call, a parallel pair (Gemini signs only the first), a call, the end.
SCRIPT: list[dict[str, Any]] = [
    {"text": "Looking first.", "reasoning": "The dates module is suspect.", "tool_calls": [READ]},
    {"tool_calls": [RUN, READ]},
    {"text": "Planning.", "tool_calls": [PLAN]},
    {"text": "Done: the dates parse."},
]


def client_for(server: StrictServer, **profile: Any) -> ModelClient:
    fields: dict[str, Any] = {"base_url": server.base_url, "model": server.model, "max_retries": 0}
    return create_client(ModelProfile(**{**fields, **profile}), env={})


async def converse(client: ModelClient, requests: int = 4) -> list[Collected]:
    """The script's conversation: each reply kept as the client returned it, each call
    answered, as the loop does."""
    history = list(USER)
    replies = []
    for _ in range(requests):
        got = await collect(client, history)
        replies.append(got)
        message = got.completion.message
        history.append(message)
        for call in message.tool_calls:
            history.append(
                Message("tool", f"{call.name}: ok", tool_call_id=call.id, name=call.name)
            )
    await client.aclose()
    return replies


def notes(replies: list[Collected]) -> list[str]:
    return [e.said for r in replies for e in r.events if isinstance(e, Adapted)]


def assert_usage_is_the_servers(server: StrictServer, replies: list[Collected]) -> None:
    reported = server.usage_reported
    assert len(reported) == len(replies)
    for got, report in zip(replies, reported, strict=True):
        usage = got.completion.usage
        assert (usage.uncached_input, usage.cached_input) == (report.uncached, report.cached)
        # Reasoning tokens as the server put them in its usage (Kimi's says none).
        details = ("completion_tokens_details", "output_tokens_details")
        said = any(key in report.raw for key in details)
        assert (usage.output, usage.reasoning) == (report.output, report.reasoning if said else 0)


def bodies(server: StrictServer) -> list[dict[str, Any]]:
    return [r.body for r in server.chat_requests if r.refused_by is None]


async def test_gpt_5_on_chat_completions() -> None:
    """A1, A2, A4, A7: max_completion_tokens, no temperature, the effort asked, reasoning
    tokens counted apart."""
    with StrictServer("openai", SCRIPT, model="gpt-5") as server:
        replies = await converse(client_for(server, effort="high", temperature=0.2))
    assert server.refusals == [] and notes(replies) == []
    for body in bodies(server):
        assert body["reasoning_effort"] == "high" and "max_completion_tokens" in body
        assert "max_tokens" not in body and "temperature" not in body
    assert_usage_is_the_servers(server, replies)
    assert all(r.completion.usage.reasoning > 0 for r in replies)
    assert [c.name for c in replies[1].completion.message.tool_calls] == ["run", "read_file"]
    assert replies[3].completion.message.content == "Done: the dates parse."


async def test_gemini_3_gets_its_thought_signatures_back() -> None:
    """D1, D3: the signature kept as it came (the first call of a parallel set, a text
    reply's), sent back unchanged; the effort in Gemini's words."""
    with StrictServer("gemini", SCRIPT, model="gemini-3-pro-preview") as server:
        replies = await converse(client_for(server, effort="low"))
    assert server.refusals == [] and notes(replies) == []
    sent = bodies(server)
    assert all(body["reasoning_effort"] == "low" for body in sent)
    pair = replies[1].completion.message.tool_calls
    assert pair[0].extra is not None and pair[1].extra is None
    signature = pair[0].extra["extra_content"]["google"]["thought_signature"]
    assert sent[2]["messages"][4]["tool_calls"][0]["extra_content"]["google"] == {
        "thought_signature": signature
    }
    assert "extra_content" not in sent[2]["messages"][4]["tool_calls"][1]
    last = replies[3].completion.message
    assert last.replay_api == "chat" and "thought_signature" in str(last.replay)
    assert_usage_is_the_servers(server, replies)


async def test_deepseek_v4_thinking_gets_its_reasoning_back() -> None:
    """E3, E4: reasoning_content on the tool-call turn's messages; cache hits from
    prompt_cache_hit_tokens, reasoning tokens apart."""
    with StrictServer("deepseek", SCRIPT, model="deepseek-reasoner") as server:
        replies = await converse(client_for(server))
    assert server.refusals == [] and notes(replies) == []
    first = replies[0].completion.message
    assert first.reasoning == "The dates module is suspect."
    assert bodies(server)[1]["messages"][2]["reasoning_content"] == first.reasoning
    assert_usage_is_the_servers(server, replies)
    assert sum(r.completion.usage.cached_input for r in replies) > 0


async def test_kimi_k2_thinking_reasoning_back_temperature_and_usage_in_the_choice() -> None:
    """F1, F2, F3: reasoning_content on every assistant tool-call message, temperature 1.0
    whatever was asked, usage from choices[0].usage with its cached_tokens."""
    with StrictServer("kimi", SCRIPT, model="kimi-k2-thinking") as server:
        replies = await converse(client_for(server, temperature=0.3))
    assert server.refusals == [] and notes(replies) == []
    last = bodies(server)[3]["messages"]
    assert all(m["reasoning_content"] for m in last if m.get("tool_calls"))
    assert all(body["temperature"] == 1.0 for body in bodies(server))
    assert_usage_is_the_servers(server, replies)
    assert sum(r.completion.usage.cached_input for r in replies) > 0


async def test_an_unknown_model_that_refuses_max_tokens_is_adapted_to_once() -> None:
    """A1 on a model kiln has no data for: one refusal, one note, the rest goes through."""
    with StrictServer("openai", SCRIPT, model="o5-mini") as server:
        client = client_for(server)
        replies = await converse(client)
    assert [r.rule for r in server.refusals] == ["A1"]
    assert notes(replies) == [
        "o5-mini refused max_tokens: kiln sends max_completion_tokens from now on"
    ]
    assert [r.refused_by for r in server.chat_requests] == ["A1", None, None, None, None]
    assert all("max_completion_tokens" in body for body in bodies(server))
    assert_usage_is_the_servers(server, replies)


async def test_an_unknown_model_refusing_two_parameters_gets_two_notes() -> None:
    """A1 then A2 on one request: each adapted to once, the request sent again at once."""
    with StrictServer("openai", SCRIPT, model="o5-mini") as server:
        replies = await converse(client_for(server, temperature=0.2))
    assert [r.rule for r in server.refusals] == ["A1", "A2"]
    assert notes(replies) == [
        "o5-mini refused max_tokens: kiln sends max_completion_tokens from now on",
        "o5-mini refused temperature: kiln sends none from now on",
    ]
    assert not any(r.retries for r in replies)  # an adaptation is not a retry
    assert_usage_is_the_servers(server, replies)


@pytest.mark.parametrize(
    ("profile", "model", "rule"),
    [("deepseek", "deepseek-r2", "E3"), ("kimi", "kimi-k3-thinking", "F1")],
)
async def test_an_unknown_thinking_model_that_wants_its_reasoning_back(
    profile: str, model: str, rule: str
) -> None:
    """E3, F1 on names kiln has no data for: reasoning is not sent back by default (E1),
    then is, once the server asks for it."""
    with StrictServer(profile, SCRIPT, model=model) as server:
        replies = await converse(client_for(server))
    assert [r.rule for r in server.refusals] == [rule]
    assert notes(replies) == [
        f"{model} wants its reasoning back: kiln sends reasoning_content from now on"
    ]
    assert "reasoning_content" not in str(bodies(server)[0]["messages"])
    assert_usage_is_the_servers(server, replies)


async def test_a_refused_effort_value_becomes_the_nearest_the_server_lists() -> None:
    """D3: Gemini's endpoint refused 'minimal' although its docs list it."""
    with StrictServer("gemini", SCRIPT, model="gemini-3-flash-preview") as server:
        client = client_for(server)
        assert isinstance(client, AdaptingClient) and client.choices is not None
        client.choices.effort = "minimal"  # as if kiln's data listed it
        replies = await converse(client)
    assert [r.rule for r in server.refusals] == ["D3"]
    assert notes(replies) == [
        "gemini-3-flash-preview refused reasoning effort minimal: kiln sends low from now on"
    ]
    assert [body["reasoning_effort"] for body in bodies(server)] == ["low"] * 4


async def test_kept_thought_signatures_are_sent_once_the_server_asks() -> None:
    """D1 where kiln kept the signatures but did not send them (no data for the model)."""
    with StrictServer("gemini", SCRIPT, model="gemini-3-pro-preview") as server:
        client = client_for(server)
        assert isinstance(client, AdaptingClient) and client.choices is not None
        client.choices.extras_back = False
        replies = await converse(client)
    assert [r.rule for r in server.refusals] == ["D1"]
    assert notes(replies) == [
        "gemini-3-pro-preview wants its thought signatures back: kiln sends them with its "
        "tool calls from now on"
    ]


async def test_a_signature_never_kept_cannot_be_made_up() -> None:
    """D1 on a conversation whose call lost its signature: one sentence, no loop."""
    from agent.errors import ModelError
    from agent.llm.base import ToolCall

    unsigned = Message("assistant", "", (ToolCall("function-call-9", "read_file", {"path": "a"}),))
    history = [*USER, unsigned, Message("tool", "ok", tool_call_id="function-call-9")]
    with StrictServer("gemini", SCRIPT, model="gemini-3-pro-preview") as server:
        client = client_for(server)
        with pytest.raises(ModelError) as raised:
            await collect(client, history)
        await client.aclose()
    assert [r.rule for r in server.refusals] == ["D1"]
    assert "cannot make up after the fact" in raised.value.message
    assert "Function call is missing a thought_signature" in raised.value.message


async def test_an_adaptation_refused_again_is_one_sentence() -> None:
    """Item 7: a second refusal of a kind already adapted ends the request, naming the
    model, the parameter and what to set, with the server's own words."""
    from agent.errors import ModelError

    with StrictServer("openai", SCRIPT, model="gpt-5") as server:
        client = client_for(server, temperature=0.5)
        assert isinstance(client, AdaptingClient) and client.choices is not None
        client.choices.temperature = "any"  # as if kiln's data let it send one
        client._done.add("temperature")  # and it had adapted to temperature already
        with pytest.raises(ModelError) as raised:
            await collect(client)
        await client.aclose()
    assert [r.rule for r in server.refusals] == ["A2"]
    assert raised.value.message.startswith(
        f"The model server at {server.base_url} refused temperature for gpt-5 "
        "(400: Unsupported value: 'temperature' does not support 0.5 with this model"
    )
    assert raised.value.message.endswith(
        "set temperature = -1 in the model profile so kiln sends none."
    )


@pytest.mark.parametrize(
    ("model", "rule", "effort"),
    [("gpt-5-codex", "B1", ""), ("gpt-5.4", "A5", "high"), ("gpt-5.6", "A6", "")],
)
async def test_a_model_chat_completions_refuses_goes_to_the_responses_api(
    model: str, rule: str, effort: str
) -> None:
    """B1 (404, Responses-only), A5 (tools with an effort), A6 (tools unless effort none is
    sent): the Responses client from then on, the same conversation going on there."""
    with StrictServer("openai", SCRIPT, model=model) as server:
        client = client_for(server, wire_api="chat")
        assert isinstance(client, AdaptingClient) and client.choices is not None
        client.choices.effort = effort  # gpt-5.4's effort as the chat client would send it
        replies = await converse(client)
    assert [r.rule for r in server.refusals] == [rule]
    assert len(notes(replies)) == 1 and "kiln uses /v1/responses from now on" in notes(replies)[0]
    paths = [r.path for r in server.chat_requests]
    assert paths == ["/v1/chat/completions"] + ["/v1/responses"] * 4
    assert_usage_is_the_servers(server, replies)


async def test_vllm_without_auto_tool_choice_gets_tool_calls_as_text() -> None:
    """G1: the first request refused, one note, then no `tools` sent: the tools are in the
    prompt and the calls come back out of the text."""
    with StrictServer("vllm-no-auto-tools", SCRIPT) as server:
        replies = await converse(client_for(server))
    assert [r.rule for r in server.refusals] == ["G1"]
    assert notes(replies) == [
        f"the server at {server.base_url} takes no native tool calls for {server.model}: "
        "kiln writes tool calls as text from now on"
    ]
    sent = bodies(server)
    assert len(sent) == 4 and not any("tools" in body for body in sent)
    assert "# Tools" in sent[0]["messages"][0]["content"]
    calls = [[c.name for c in r.completion.message.tool_calls] for r in replies]
    assert calls == [["read_file"], ["run", "read_file"], ["update_plan"], []]
    assert_usage_is_the_servers(server, replies)
