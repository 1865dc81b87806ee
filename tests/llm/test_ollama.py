"""Ollama as shipped, through the strict Ollama server (`tests/strict/ollama.py`: 4096
tokens served of the model's 32768, a longer prompt cut silently on the OpenAI endpoint and
recorded, H1, H2): kiln finds Ollama, talks to its native chat API asking for the window it
keeps its prompts within, and no prompt over what is served ever reaches it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agent.events import Usage
from agent.llm.base import Completion, Message, ModelProfile
from agent.llm.factory import create_client
from agent.llm.ollama import OllamaClient
from agent.llm.window import served_context
from agent.session.startup import declared_window
from agent.settings.config import Settings, load_settings
from agent.settings.resolve import resolve_profile
from tests.llm.streams import TOOLS, USER
from tests.strict import StrictServer

MODEL = "qwen2.5-coder:7b"
BIG = "def f():\n    return 1\n" * 900  # a file of some 6,000 tokens: over 4096


def settings(repo: Path, server: StrictServer, **main: object) -> Settings:
    flags = {"models.main.base_url": server.base_url, "models.main.model": server.model}
    flags.update({f"models.main.{k}": v for k, v in main.items()})
    return load_settings(repo, flags, env={})


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"name": name, "arguments": arguments}


FIX = [
    {"text": "Looking.", "tool_calls": [call("read_file", path="calc.py")]},
    {"tool_calls": [call("edit_file", path="calc.py", old_text="a - b", new_text="a + b")]},
    {"tool_calls": [call("run", command="python -m unittest")]},
    {"tool_calls": [call("read_file", path="calc.py")]},
    {"text": "add adds now."},
]


async def test_a_model_ollama_serves_goes_native_asking_for_its_window(tmp_path: Path) -> None:
    with StrictServer("ollama", FIX, model=MODEL) as server:
        found = settings(tmp_path, server)
        profile = await resolve_profile(found)
        window = await declared_window(profile, found)
        probes = [r.path for r in server.requests]
        client = create_client(profile)
        assert isinstance(client, OllamaClient)
        history, usages = list(USER), list[Usage]()
        for n in range(5):
            events = [e async for e in client.stream(history, TOOLS)]
            completion = events[-1]
            assert isinstance(completion, Completion)
            history.append(completion.message)
            usages.append(completion.usage)
            for made in completion.message.tool_calls:
                output = BIG if n == 0 else "ok"  # the file read is longer than 4096 tokens
                history.append(Message("tool", output, tool_call_id=made.id, name=made.name))
        await client.aclose()
        chats = server.chat_requests
        served_after = server.provider.loaded  # type: ignore[attr-defined]
    assert profile.provider == "ollama" and profile.context_window == 32768
    assert (window.tokens, window.known, window.server) == (32768, True, "ollama")
    assert probes == ["/v1/models", "/api/show"]  # nothing loads the model to ask
    assert server.refusals == [] and server.truncations == []
    assert [r.path for r in chats] == ["/api/chat"] * 5
    for request in chats:
        assert request.body["options"]["num_ctx"] == 32768
        assert request.body["truncate"] is False and request.body["tools"]
    assert served_after == 32768
    # Over what a default Ollama serves, and served whole: kiln raised it.
    assert server.usage_reported[-1].prompt > 4096
    # Tool calls answered by name and id; the meter's tokens are Ollama's counts.
    tool_results = [m for m in chats[-1].body["messages"] if m["role"] == "tool"]
    assert [m["tool_name"] for m in tool_results] == ["read_file", "edit_file", "run", "read_file"]
    for usage, report in zip(usages, server.usage_reported, strict=True):
        assert (usage.uncached_input, usage.output) == (report.prompt, report.output)
    assert history[-1].content == "add adds now."


async def test_the_persons_window_and_provider_stand(tmp_path: Path) -> None:
    with StrictServer("ollama", [], model=MODEL) as server:
        mine = await resolve_profile(settings(tmp_path, server, context_window=16384))
        named = await resolve_profile(settings(tmp_path, server, provider="openai"))
    assert (mine.provider, mine.context_window) == ("ollama", 16384)
    assert named.provider == "openai"


async def test_on_its_openai_endpoint_the_window_is_what_ollama_serves(tmp_path: Path) -> None:
    """The person named the OpenAI endpoint: kiln's window is the 4096 Ollama serves (not
    the model's 32768), said in one sentence with how to raise it, and the loop keeps every
    prompt within it."""
    with StrictServer("ollama", [], model=MODEL) as server:
        named = settings(tmp_path, server, provider="openai")
        notes: list[str] = []
        window = await declared_window(await resolve_profile(named), named, notes)
    assert server.refusals == []
    assert (window.tokens, window.known, window.server) == (4096, True, "ollama")
    assert window.room + min(window.reply_reserve, 1024) == 4096
    (note,) = notes
    assert "4,096-token context (the model takes 32,768)" in note
    assert "OLLAMA_CONTEXT_LENGTH=32768" in note and "PARAMETER num_ctx 32768" in note


async def test_a_model_not_loaded_yet_is_loaded_to_learn_what_is_served() -> None:
    with StrictServer("ollama", [], model=MODEL, loaded=False) as server:
        served = await served_context(server.base_url, MODEL)
        asked = [r.path for r in server.requests]
    # The strict server has no /api/generate (the load), so it says nothing still: kiln
    # takes the least an Ollama serves by default rather than the model's 32768.
    assert asked == ["/v1/models", "/api/show", "/api/ps", "/api/generate", "/api/ps"]
    assert served is not None and (served.tokens, served.server) == (2048, "ollama")
    assert "OLLAMA_CONTEXT_LENGTH" in served.note


def test_a_profile_kiln_made_for_ollama_sends_num_ctx_and_no_truncation() -> None:
    profile = ModelProfile(
        provider="ollama", base_url="http://127.0.0.1:11434/v1", model=MODEL,
        context_window=32768, max_output_tokens=2048, temperature=0.2,
    )  # fmt: skip
    body = OllamaClient(profile, env={}).body(USER, TOOLS, None, None)
    assert body["options"] == {
        "num_ctx": 32768, "num_predict": 2048, "temperature": 0.2, "seed": body["options"]["seed"]
    }  # fmt: skip
    assert body["truncate"] is False and body["stream"] is True
    assert body["messages"][0] == {"role": "system", "content": "You are kiln."}
