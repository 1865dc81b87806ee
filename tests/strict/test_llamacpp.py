"""The strict llama.cpp server: /props, /tokenize, a prompt over n_ctx refused (L1-L3)."""

from __future__ import annotations

import httpx

from tests.strict import StrictServer
from tests.strict.talk import post

USER = {"role": "user", "content": "fix it"}


def test_l1_prompt_over_n_ctx_refused() -> None:
    with StrictServer("llamacpp", [{"text": "ok"}], context=50) as server:
        refused = post(
            server, "/chat/completions", {"messages": [{"role": "user", "content": "w " * 60}]}
        )
        kept = post(server, "/chat/completions", {"messages": [USER]})
    assert refused.status_code == 400
    assert refused.json() == {
        "error": {
            "code": 400,
            "message": "request (63 tokens) exceeds the available context size (50 tokens)",
            "type": "exceed_context_size_error",
            "n_prompt_tokens": 63,
            "n_ctx": 50,
        }
    }
    assert kept.status_code == 200 and kept.json()["choices"][0]["message"]["content"] == "ok"


def test_l2_l3_props_and_tokenize() -> None:
    with StrictServer("llamacpp", [], context=4096) as server:
        props = httpx.get(server.root_url + "/props").json()
        counted = httpx.post(
            server.root_url + "/tokenize", json={"content": "one two, three"}
        ).json()
        wrong = httpx.post(server.root_url + "/tokenize", json={"prompt": "one two three"}).json()
    assert props["default_generation_settings"]["n_ctx"] == 4096
    assert counted == {"tokens": [0, 1, 2, 3]}
    assert wrong == {"tokens": []}
