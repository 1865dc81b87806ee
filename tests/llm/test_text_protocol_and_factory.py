"""The text tool protocol, the client factory and `kiln models`."""

from __future__ import annotations

import argparse
import io

import pytest
from rich.console import Console

from agent.errors import ConfigError
from agent.llm.adapt import AdaptingClient
from agent.llm.anthropic import AnthropicClient
from agent.llm.base import Message, ModelProfile
from agent.llm.factory import create_client
from agent.llm.openai_compat import OpenAICompatClient
from agent.llm.scripted.server import ScriptedServer
from agent.llm.text_protocol import TextProtocolClient
from agent.settings import paths
from agent.settings.models_cli import main as models_main
from tests.llm.streams import USER, collect


async def test_text_protocol_puts_tools_in_the_prompt_and_parses_calls() -> None:
    turns = [
        {
            "text": "Reading.",
            "text_tool_call": "fenced",
            "tool_calls": [{"name": "read_file", "arguments": {"path": "a.py"}}],
        },
        {"text": "Fixed."},
    ]
    with ScriptedServer(turns) as server:
        profile = ModelProfile(base_url=server.base_url, model="m", tool_protocol="text")
        client = create_client(profile, env={})
        assert isinstance(client, TextProtocolClient)
        first = await collect(client)
        [call] = first.completion.message.tool_calls
        history = [
            *USER,
            first.completion.message,
            Message("tool", "print(1)", tool_call_id=call.id, name="read_file"),
        ]
        await collect(client, history)
        await client.aclose()
    body = server.requests[0].body
    assert "tools" not in body
    system = body["messages"][0]["content"]
    assert system.startswith("You are kiln.\n\n# Tools")
    assert (
        "- edit_file(path: string, old_text: string, new_text: string, replace_all?: boolean)"
        in system
    )
    assert (call.name, call.arguments, call.recovered_from_text) == (
        "read_file",
        {"path": "a.py"},
        True,
    )
    later = server.requests[1].body["messages"]
    assert later[2] == {
        "role": "assistant",
        "content": 'Reading.\nI will call a tool.\n```json\n{"name": "read_file", "arguments": {"path": "a.py"}}\n```',
    }
    assert later[3] == {"role": "user", "content": "Result of read_file:\nprint(1)"}


def test_factory_builds_by_provider_and_explains_bad_profiles() -> None:
    openai = create_client(ModelProfile(base_url="http://127.0.0.1:1/v1"), env={})
    assert isinstance(openai, AdaptingClient) and isinstance(openai.base, OpenAICompatClient)
    assert isinstance(
        create_client(ModelProfile(provider="anthropic", model="c"), env={}), AnthropicClient
    )
    with pytest.raises(ConfigError, match="Unknown model provider 'gemini'"):
        create_client(ModelProfile(provider="gemini", base_url="http://x"))
    with pytest.raises(ConfigError, match="No model server is configured"):
        create_client(ModelProfile())
    with pytest.raises(ConfigError, match="Unknown tool_protocol 'xml'"):
        create_client(ModelProfile(base_url="http://x", tool_protocol="xml"))


def test_kiln_models_lists_profiles_and_finds_a_server(tmp_path) -> None:
    paths.user_config_file().parent.mkdir(parents=True, exist_ok=True)
    paths.user_config_file().write_text(  # model profiles are the person's (or a trusted repo's)
        '[models.fast]\nprovider = "openai"\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "small"\n'
    )
    with ScriptedServer({"model": "qwen2.5-coder-1.5b", "turns": []}) as server:
        args = argparse.Namespace(
            repo=str(tmp_path), base_url="http://127.0.0.1:5/v1", model="big", provider=None
        )
        out = io.StringIO()
        ports = (("llama.cpp", server.port), ("vLLM", free_port()))
        assert models_main(args, ports=ports, console=Console(file=out, width=200)) == 0
    text = out.getvalue()
    assert "fast" in text and "small" in text and "main" in text and "big" in text
    assert "not needed" in text  # a server on 127.0.0.1 without api_key_env needs no key
    assert f"http://127.0.0.1:{server.port}/v1" in text and "qwen2.5-coder-1.5b" in text
    assert f"kiln --base-url http://127.0.0.1:{server.port}/v1 --model qwen2.5-coder-1.5b" in text
    assert [r.path for r in server.requests] == ["/v1/models"]


def test_kiln_models_says_when_nothing_runs(tmp_path) -> None:
    args = argparse.Namespace(repo=str(tmp_path), base_url=None, model=None, provider=None)
    out = io.StringIO()
    models_main(args, ports=(("Ollama", free_port()),), console=Console(file=out, width=200))
    assert "No model profile is configured" in out.getvalue()
    assert "No model server answers on 127.0.0.1 (checked Ollama" in out.getvalue()


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
