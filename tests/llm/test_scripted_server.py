"""The scripted model server itself, spoken to with plain httpx (no kiln client)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from http.server import BaseHTTPRequestHandler

import httpx
import pytest

from agent.llm.scripted.server import Script, ScriptedServer, ThreadedServer, count_tokens

BODY = {
    "model": "m",
    "stream": True,
    "stream_options": {"include_usage": True},
    "messages": [{"role": "user", "content": "fix the bug please"}],
}


def _sse_payloads(response: httpx.Response) -> list[dict]:
    out = []
    for line in response.iter_lines():
        if line.startswith("data: ") and line != "data: [DONE]":
            out.append(json.loads(line[6:]))
    return out


def test_models_endpoint_reports_the_script_model() -> None:
    with ScriptedServer({"model": "tiny-coder", "turns": []}) as server:
        data = httpx.get(server.base_url + "/models").json()
    assert [m["id"] for m in data["data"]] == ["tiny-coder"]


def test_faults_use_a_request_and_the_same_turn_is_served_again() -> None:
    script = [{"text": "first", "fault": ["429", "500"], "retry_after": 3}, {"text": "second"}]
    with ScriptedServer(script) as server, httpx.Client() as client:
        url = server.base_url + "/chat/completions"
        plain = {**BODY, "stream": False}
        r1 = client.post(url, json=plain)
        r2 = client.post(url, json=plain)
        r3 = client.post(url, json=plain)
        r4 = client.post(url, json=plain)
        r5 = client.post(url, json=plain)
    assert (r1.status_code, r1.headers["retry-after"]) == (429, "3")
    assert r2.status_code == 500
    assert r3.json()["choices"][0]["message"]["content"] == "first"
    assert r4.json()["choices"][0]["message"]["content"] == "second"
    assert r5.status_code == 400 and "no turns left" in r5.json()["error"]["message"]
    assert [r.turn for r in server.requests] == [0, 0, 0, 1, None]
    assert [r.outcome for r in server.requests] == ["fault", "fault", "ok", "ok", "error"]


def test_usage_counts_the_prompt_and_caches_the_common_prefix() -> None:
    with ScriptedServer([{"text": "one two three"}, {"text": "four"}]) as server:
        url = server.base_url + "/chat/completions"
        first = _sse_payloads(httpx.post(url, json=BODY))
        longer = {
            **BODY,
            "messages": [*BODY["messages"], {"role": "assistant", "content": "one two three"}],
        }
        second = _sse_payloads(httpx.post(url, json=longer))
    u1, u2 = first[-1]["usage"], second[-1]["usage"]
    prompt1 = count_tokens("[] user fix the bug please")
    assert u1["prompt_tokens"] == prompt1 and u1["prompt_tokens_details"]["cached_tokens"] == 0
    assert u1["completion_tokens"] == 3
    assert u2["prompt_tokens"] == prompt1 + 4
    assert u2["prompt_tokens_details"]["cached_tokens"] == prompt1
    text = "".join(c["choices"][0]["delta"].get("content") or "" for c in first if c["choices"])
    assert text == "one two three"


def test_cut_stream_is_an_incomplete_chunked_body() -> None:
    with ScriptedServer([{"text": "a b c d e f g h", "fault": "cut"}]) as server:
        with (
            pytest.raises(httpx.RemoteProtocolError),
            httpx.stream("POST", server.base_url + "/chat/completions", json=BODY) as r,
        ):
            for _ in r.iter_lines():
                pass
        assert server.requests[0].outcome == "fault"
        again = _sse_payloads(httpx.post(server.base_url + "/chat/completions", json=BODY))
    assert again[-2]["choices"][0]["finish_reason"] == "stop"


def test_tool_calls_stream_as_indexed_fragments() -> None:
    calls = [
        {"name": "read_file", "arguments": {"path": "src/app.py"}},
        {"name": "run", "arguments": {"command": "pytest -q"}},
    ]
    with ScriptedServer([{"tool_calls": calls}]) as server:
        chunks = _sse_payloads(httpx.post(server.base_url + "/chat/completions", json=BODY))
    args: dict[int, str] = {}
    for chunk in chunks:
        for choice in chunk["choices"]:
            for tc in choice["delta"].get("tool_calls", []):
                args[tc["index"]] = args.get(tc["index"], "") + tc["function"].get("arguments", "")
    assert {i: json.loads(a) for i, a in args.items()} == {
        0: {"path": "src/app.py"},
        1: {"command": "pytest -q"},
    }
    fragment_chunks = [
        c for c in chunks if c["choices"] and "tool_calls" in c["choices"][0]["delta"]
    ]
    assert len(fragment_chunks) > 4  # arguments really arrive in pieces


def test_anthropic_cache_follows_breakpoints() -> None:
    system = [
        {"type": "text", "text": "You are kiln. " * 20, "cache_control": {"type": "ephemeral"}}
    ]
    body = {
        "model": "m",
        "max_tokens": 100,
        "system": system,
        "messages": [{"role": "user", "content": "hello there"}],
    }
    with ScriptedServer([{"text": "a"}, {"text": "b"}, {"text": "c"}]) as server:
        url = server.base_url + "/messages"
        u1 = httpx.post(url, json=body).json()["usage"]
        u2 = httpx.post(url, json=body).json()["usage"]
        no_marks = {**body, "system": [{"type": "text", "text": system[0]["text"]}]}
        u3 = httpx.post(url, json=no_marks).json()["usage"]
    assert u1["cache_read_input_tokens"] == 0 and u1["cache_creation_input_tokens"] > 40
    assert u2["cache_read_input_tokens"] == u1["cache_creation_input_tokens"]
    assert u2["cache_creation_input_tokens"] == 0
    assert u3["cache_read_input_tokens"] == 0 and u3["cache_creation_input_tokens"] == 0
    assert u1["input_tokens"] + u1["cache_creation_input_tokens"] == u3["input_tokens"]


def test_script_rejects_unknown_faults() -> None:
    with pytest.raises(ValueError, match="unknown fault"):
        Script.from_data([{"text": "x", "fault": "teapot"}])


def test_serve_scripted_command_prints_a_working_url(tmp_path) -> None:
    script = tmp_path / "s.json"
    script.write_text(json.dumps({"model": "replay", "turns": [{"text": "hi"}]}))
    proc = subprocess.Popen(
        [sys.executable, "-m", "agent.cli", "serve-scripted", str(script)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/v1")
        reply = httpx.post(url + "/chat/completions", json={**BODY, "stream": False}).json()
        assert reply["choices"][0]["message"]["content"] == "hi"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_serve_scripted_rejects_a_missing_script(tmp_path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "agent.cli", "serve-scripted", str(tmp_path / "nope.json")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert "does not exist" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("stream", [True, False])
def test_a_reply_read_to_its_end_has_already_moved_the_script_on(stream: bool) -> None:
    """A client sends its next request the moment it has read a reply, and the server's
    thread may not have run again by then (a busy machine): the turn is served before the
    reply's end goes out. Here moving on is made slow, as a descheduled thread would be."""
    with ScriptedServer([{"text": "first"}, {"text": "second"}]) as server:
        consume = server.state.consume

        def slow_consume(index: int) -> int | None:
            time.sleep(0.3)
            return consume(index)

        server.state.consume = slow_consume  # type: ignore[method-assign]
        url = server.base_url + "/chat/completions"
        with httpx.stream("POST", url, json={**BODY, "stream": stream}) as response:
            if stream:
                lines = response.iter_lines()
                while next(lines) != "data: [DONE]":
                    pass
            else:
                response.read()
            cursor_when_read = server.state.cursor
    assert cursor_when_read == 1


def test_its_connections_send_without_nagles_delay() -> None:
    """As the servers kiln talks to (asyncio's, Go's): on a connection kept alive, a reply
    written in pieces would otherwise wait for the client's delayed acknowledgement."""
    seen: list[int] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(self.connection.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    with ThreadedServer(Handler) as server:
        httpx.get(f"http://127.0.0.1:{server.port}/")
    assert seen and seen[0] != 0
