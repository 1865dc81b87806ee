"""What a server says of its window, asked of each kind of server at once."""

from __future__ import annotations

from agent.llm.scripted.server import ScriptedServer
from agent.llm.window import Served, served_context, served_token_count, served_window
from tests.strict import StrictServer


async def test_a_declared_window_is_found_and_none_is_unknown() -> None:
    with ScriptedServer({"context_window": 8192, "turns": []}) as server:
        assert await served_window(server.base_url, "m") == 8192
        asked = server.requests
    # The server says it at /v1/models, not as llama.cpp, vLLM or Ollama: nothing else is
    # asked, and nothing with a key.
    assert [r.path for r in asked] == ["/v1/models"]
    assert not [r for r in asked if "authorization" in r.headers]
    with ScriptedServer({"turns": []}) as server:
        assert await served_window(server.base_url, "m") is None


async def test_the_server_counts_tokens_with_its_own_tokenizer() -> None:
    with ScriptedServer({"turns": []}) as server:
        assert (await served_token_count(server.base_url, "one two three") or 0) > 0


async def test_vllm_is_asked_its_own_way_and_tokenizes_a_prompt_g2() -> None:
    """vLLM names itself at /v1/models with its max_model_len, and its /tokenize takes
    `{prompt}` (G2): asked nothing else, refused nothing."""
    with StrictServer("vllm-no-auto-tools", [], context=16384) as server:
        served = await served_context(server.base_url, server.model)
        assert served == Served(16384, "vllm")
        counted = await served_token_count(server.base_url, "one two three", served.server)
        # A configured window says no server: kiln asks /v1/models which one this is.
        unnamed = await served_token_count(server.base_url, "one two three")
        asked = [(r.path, r.body) for r in server.requests]
    assert server.refusals == []
    assert counted == unnamed == 3
    assert ("/tokenize", {"prompt": "one two three"}) in asked
    assert {path for path, _ in asked} == {"/v1/models", "/tokenize"}


async def test_llama_cpp_is_asked_its_own_way_and_tokenizes_content() -> None:
    with StrictServer("llamacpp", [], context=8192) as server:
        served = await served_context(server.base_url, server.model)
        assert served == Served(8192, "llama.cpp")
        counted = await served_token_count(server.base_url, "one two three", served.server)
        unnamed = await served_token_count(server.base_url, "one two three")
        asked = [(r.path, r.body) for r in server.requests]
    assert server.refusals == []
    assert counted == unnamed == 3
    assert ("/tokenize", {"content": "one two three"}) in asked
    assert {path for path, _ in asked} == {"/v1/models", "/props", "/tokenize"}
