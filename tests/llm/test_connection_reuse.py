"""Every backend reads each streamed reply to its end, so the next request goes out on the
same connection: a hosted API would otherwise cost each request a TCP and TLS handshake."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable

import pytest

from agent.llm.anthropic import AnthropicClient
from agent.llm.base import ModelClient, ModelProfile
from agent.llm.ollama import OllamaClient
from agent.llm.openai_compat import OpenAICompatClient
from agent.llm.responses import ResponsesClient
from agent.llm.scripted.server import ScriptedServer
from agent.llm.wire_common import END_OF_STREAM_S, read_to_end
from tests.llm.streams import USER, collect
from tests.strict import StrictServer


def chat(url: str) -> ModelClient:
    return OpenAICompatClient(ModelProfile(base_url=url, model="m"), env={})


def responses(url: str) -> ModelClient:
    return ResponsesClient(ModelProfile(base_url=url, model="gpt-5-codex"), env={})


def messages(url: str) -> ModelClient:
    profile = ModelProfile(provider="anthropic", base_url=url, model="claude-x")
    return AnthropicClient(profile, env={"ANTHROPIC_API_KEY": "k"})


TURNS = [{"text": f"reply {n}"} for n in range(3)]


async def three_replies(client: ModelClient) -> None:
    try:
        said = [(await collect(client, USER)).text for _ in TURNS]
    finally:
        await client.aclose()
    assert said == ["reply 0", "reply 1", "reply 2"]


@pytest.mark.parametrize("make", [chat, responses, messages])
async def test_three_replies_come_on_one_connection(make: Callable[[str], ModelClient]) -> None:
    with ScriptedServer(TURNS) as server:
        await three_replies(make(server.base_url))
    assert len({request.client_port for request in server.chat_requests}) == 1


async def test_ollamas_native_replies_come_on_one_connection_too() -> None:
    with StrictServer("ollama", TURNS, model="qwen2.5-coder:7b") as server:
        profile = ModelProfile(provider="ollama", base_url=server.base_url, model=server.model)
        await three_replies(OllamaClient(profile, env={}))
    assert len({request.client_port for request in server.chat_requests}) == 1


async def test_a_stream_that_never_ends_is_let_go_of_after_a_moment() -> None:
    async def forever() -> AsyncIterator[bytes]:
        while True:
            await asyncio.sleep(0.01)
            yield b": still here"

    started = time.monotonic()
    await read_to_end(forever())
    assert END_OF_STREAM_S <= time.monotonic() - started < END_OF_STREAM_S + 1
