"""What a server says of its window, asked of each kind of server at once."""

from __future__ import annotations

from agent.llm.scripted.server import ScriptedServer
from agent.llm.window import served_token_count, served_window


async def test_a_declared_window_is_found_and_none_is_unknown() -> None:
    with ScriptedServer({"context_window": 8192, "turns": []}) as server:
        assert await served_window(server.base_url, "m") == 8192
        asked = server.requests
    # Every way was asked (at once), none of them with a key.
    assert sorted(r.path for r in asked) == ["/api/show", "/props", "/v1/models"]
    assert not [r for r in asked if "authorization" in r.headers]
    with ScriptedServer({"turns": []}) as server:
        assert await served_window(server.base_url, "m") is None


async def test_the_server_counts_tokens_with_its_own_tokenizer() -> None:
    with ScriptedServer({"turns": []}) as server:
        assert (await served_token_count(server.base_url, "one two three") or 0) > 0
