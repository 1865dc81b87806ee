"""The strict vLLM server started without auto tool choice: G1, G2, G3."""

from __future__ import annotations

from typing import Any

import httpx

from tests.strict import StrictServer
from tests.strict.talk import post

CHAT = "/chat/completions"
USER = {"role": "user", "content": "fix it"}
TOOL = {"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}}
MODEL = "Qwen/Qwen2.5-Coder-7B-Instruct"
SCRIPT: list[dict[str, Any]] = [
    {"text": "Reading.", "tool_calls": [{"name": "read_file", "arguments": {"path": "a.py"}}]},
    {"tool_calls": [{"name": "read_file", "arguments": {"path": "b.py"}}]},
    {"text": "Done."},
]


def test_g1_tools_without_a_named_or_required_choice_refused() -> None:
    with StrictServer("vllm-no-auto-tools", SCRIPT) as server:
        refused = post(server, CHAT, {"model": MODEL, "messages": [USER], "tools": [TOOL]})
        auto = post(
            server,
            CHAT,
            {"model": MODEL, "messages": [USER], "tools": [TOOL], "tool_choice": "auto"},
        )
        text = post(server, CHAT, {"model": MODEL, "messages": [USER]})
        required = post(
            server,
            CHAT,
            {"model": MODEL, "messages": [USER], "tools": [TOOL], "tool_choice": "required"},
        )
    assert refused.status_code == 400 and auto.status_code == 400
    assert refused.json() == {
        "error": {
            "message": '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
            "type": "BadRequestError",
            "param": None,
            "code": 400,
        }
    }
    said = text.json()["choices"][0]["message"]
    assert "tool_calls" not in said
    assert (
        '<tool_call>\n{"name": "read_file", "arguments": {"path": "a.py"}}\n</tool_call>'
        in said["content"]
    )
    assert (
        required.json()["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "read_file"
    )
    assert [r.rule for r in server.refusals] == ["G1", "G1"]


def test_g2_tokenize_takes_prompt_or_messages() -> None:
    with StrictServer("vllm-no-auto-tools", SCRIPT, context=4096) as server:
        prompt = httpx.post(server.root_url + "/tokenize", json={"prompt": "one two three"})
        messages = httpx.post(
            server.root_url + "/tokenize", json={"model": MODEL, "messages": [USER]}
        )
        content = httpx.post(server.root_url + "/tokenize", json={"content": "one two three"})
        models = httpx.get(server.base_url + "/models").json()
    assert prompt.json() == {"count": 3, "max_model_len": 4096, "tokens": [0, 1, 2]}
    assert messages.json()["count"] == 5  # [ ] user fix it
    assert content.status_code == 400 and "Field required" in content.json()["error"]["message"]
    assert models["data"][0]["max_model_len"] == 4096


def test_g3_prompt_and_output_over_max_model_len_refused() -> None:
    long = {"role": "user", "content": "word " * 120}
    with StrictServer("vllm-no-auto-tools", SCRIPT, context=100) as server:
        prompt_over = post(server, CHAT, {"model": MODEL, "messages": [long]})
        output_over = post(server, CHAT, {"model": MODEL, "messages": [USER], "max_tokens": 99})
        kept = post(server, CHAT, {"model": MODEL, "messages": [USER], "max_tokens": 90})
    assert prompt_over.status_code == 400
    assert prompt_over.json()["error"]["message"] == (
        "This model's maximum context length is 100 tokens. However, your request has 123 input "
        "tokens. Please reduce the length of the input messages."
    )
    assert output_over.status_code == 400
    assert (
        "you requested 99 output tokens and your prompt contains at least 5 input tokens"
        in output_over.json()["error"]["message"]
    )
    assert kept.status_code == 200
    assert kept.json()["usage"]["prompt_tokens_details"] is None
