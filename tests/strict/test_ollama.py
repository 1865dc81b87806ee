"""The strict Ollama server at a 4k served context: the silent cut on /v1 (H1), what it
says of its window and num_ctx on the native API (H2)."""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.strict import StrictServer
from tests.strict.talk import post

MODEL = "qwen2.5-coder:7b"
SCRIPT: list[dict[str, Any]] = [
    {"text": "One."},
    {"text": "Two.", "tool_calls": [{"name": "read_file", "arguments": {"path": "a.py"}}]},
    {"text": "Three."},
    {"text": "Four."},
]
LONG = {"role": "user", "content": "word " * 5000}
SHORT = {"role": "user", "content": "fix it"}


def test_h1_a_prompt_over_the_served_context_is_cut_silently_and_recorded() -> None:
    with StrictServer("ollama", SCRIPT) as server:
        short = post(server, "/chat/completions", {"model": MODEL, "messages": [SHORT]})
        assert server.truncations == []
        cut = post(
            server, "/chat/completions", {"model": MODEL, "messages": [LONG], "num_ctx": 16384}
        )
    assert short.status_code == 200 and cut.status_code == 200
    assert server.truncations == [
        {"path": "/v1/chat/completions", "limit": 4096, "prompt": 5003, "keep": 4, "new": 4096}
    ]
    assert cut.json()["usage"]["prompt_tokens"] == 4096
    assert server.refusals == []


def test_h2_served_and_trained_context_and_num_ctx_on_the_native_api() -> None:
    with StrictServer("ollama", SCRIPT) as server:
        root = server.root_url
        served = httpx.get(root + "/api/ps").json()["models"][0]["context_length"]
        show = httpx.post(root + "/api/show", json={"model": MODEL}).json()
        native = httpx.post(
            root + "/api/chat",
            json={
                "model": MODEL,
                "messages": [LONG],
                "options": {"num_ctx": 8192},
                "stream": False,
            },
        )
        raised = httpx.get(root + "/api/ps").json()["models"][0]["context_length"]
        streamed = httpx.post(
            root + "/api/chat",
            json={"model": MODEL, "messages": [SHORT], "options": {"num_ctx": 8192}},
        )
        tags = httpx.get(root + "/api/tags").json()
        models = httpx.get(server.base_url + "/models").json()
        unknown = httpx.post(root + "/api/show", json={"model": "llama3"})
    assert served == 4096
    assert show["model_info"]["qwen2.context_length"] == 32768 and show["parameters"] == ""
    assert native.status_code == 200 and native.json()["prompt_eval_count"] == 5003
    assert raised == 8192 and server.truncations == []
    lines = [json.loads(line) for line in streamed.text.splitlines()]
    assert streamed.headers["content-type"] == "application/x-ndjson"
    assert lines[-1]["done"] is True and lines[-1]["eval_count"] > 0
    calls = [line["message"]["tool_calls"] for line in lines if line["message"].get("tool_calls")]
    assert calls == [[{"function": {"name": "read_file", "arguments": {"path": "a.py"}}}]]
    assert tags["models"][0]["name"] == MODEL and models["data"][0]["id"] == MODEL
    assert unknown.status_code == 404
    assert [u.raw["prompt_eval_count"] for u in server.usage_reported] == [5003, 5]


def test_h2_a_modelfile_num_ctx_shows_and_the_native_api_cuts_too() -> None:
    with StrictServer("ollama", SCRIPT, num_ctx_parameter=4096, loaded=False) as server:
        assert httpx.get(server.root_url + "/api/ps").json() == {"models": []}
        show = httpx.post(server.root_url + "/api/show", json={"name": MODEL}).json()
        httpx.post(
            server.root_url + "/api/chat",
            json={"model": MODEL, "messages": [LONG], "stream": False},
        )
    assert show["parameters"].split() == ["num_ctx", "4096"]
    assert server.truncations[0]["path"] == "/api/chat" and server.truncations[0]["limit"] == 4096
