"""Faults injected by the scripted server: retries, corrections, errors, cancellation."""

from __future__ import annotations

import asyncio
import email.utils
import socket

import pytest

from agent.errors import ModelError
from agent.llm.base import ModelProfile
from agent.llm.openai_compat import OpenAICompatClient
from agent.llm.retry import backoff_delay, parse_retry_after
from agent.llm.scripted.server import ScriptedServer
from tests.llm.streams import collect, openai_client

CALL = {"name": "edit_file", "arguments": {"path": "a.py", "old_text": "x", "new_text": "y"}}


async def test_429_waits_as_long_as_retry_after_says() -> None:
    with ScriptedServer([{"text": "after the wait", "fault": "429", "retry_after": 0.3}]) as server:
        client = openai_client(server.base_url)
        got = await collect(client)
        await client.aclose()
    assert [(n.attempt, n.delay_s) for n in got.retries] == [(1, 0.3)]
    assert got.completion.message.content == "after the wait"
    assert [r.status for r in server.requests] == [429, 200]


def test_retry_after_accepts_seconds_and_http_dates() -> None:
    now = 1_700_000_000.0
    date = email.utils.formatdate(now + 7, usegmt=True)
    assert parse_retry_after("12") == 12.0
    assert parse_retry_after(date, now=now) == pytest.approx(7.0)
    assert parse_retry_after("soon") is None
    delays = [backoff_delay(3, 1.0, None) for _ in range(50)]
    assert all(4.0 <= d <= 8.0 for d in delays) and len(set(delays)) > 1  # jittered


async def test_500_and_cut_stream_are_retried_and_the_partial_text_is_void() -> None:
    text = "one two three four five six seven eight nine ten"
    with ScriptedServer([{"text": text, "fault": ["500", "cut"]}]) as server:
        client = openai_client(server.base_url)
        got = await collect(client)
        await client.aclose()
    assert got.retries[0].reason == "HTTP 500"
    assert "cut off" in got.retries[1].reason
    assert got.text != text  # the cut attempt streamed a part first...
    assert got.text_after_last_retry == text == got.completion.message.content  # ...then all
    assert [r.outcome for r in server.requests] == ["fault", "fault", "ok"]


async def test_malformed_json_in_the_stream_is_retried() -> None:
    with ScriptedServer([{"text": "clean", "fault": "malformed_json"}]) as server:
        client = openai_client(server.base_url)
        got = await collect(client)
        await client.aclose()
    assert "malformed JSON" in got.retries[0].reason
    assert got.completion.message.content == "clean"


async def test_malformed_tool_arguments_become_a_precise_correction() -> None:
    other = {"name": "run", "arguments": {"command": "ls"}}
    with ScriptedServer([{"tool_calls": [CALL, other], "fault": "malformed_json"}]) as server:
        client = openai_client(server.base_url)
        got = await collect(client)
        again = await collect(client)  # the loop sends the correction; the turn comes again
        await client.aclose()
    [problem] = got.completion.format_problems
    assert "`edit_file`" in problem.correction and "not valid JSON" in problem.correction
    assert [c.name for c in got.completion.message.tool_calls] == ["run"]
    assert [c.name for c in again.completion.message.tool_calls] == ["edit_file", "run"]


async def test_invalid_tool_arguments_name_the_missing_key() -> None:
    with ScriptedServer([{"tool_calls": [CALL], "fault": "invalid_tool_args"}]) as server:
        client = openai_client(server.base_url)
        got = await collect(client)
        await client.aclose()
    [problem] = got.completion.format_problems
    assert problem.correction.startswith(
        "Your call to `edit_file` is missing the required argument `path`."
    )
    assert '"name": "edit_file"' in problem.correction and "old_text" in problem.correction
    assert got.completion.message.tool_calls == ()


async def test_exhausted_retries_end_in_one_sentence() -> None:
    with ScriptedServer([{"text": "never", "fault": ["500"] * 3}]) as server:
        client = openai_client(server.base_url, max_retries=2)
        with pytest.raises(ModelError) as raised:
            await collect(client)
        await client.aclose()
    assert raised.value.message == (
        f"The model server at {server.base_url} kept failing (HTTP 500) in 3 attempts: "
        "check its logs and try again."
    )


async def test_401_says_which_variable_holds_the_key() -> None:
    # A scripted script cannot answer 401, so a tiny handler on a free port does.
    import threading
    from http.server import BaseHTTPRequestHandler, HTTPServer

    class Refuse(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            body = b'{"error": {"message": "Incorrect API key provided"}}'
            self.send_response(401)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    httpd = HTTPServer(("127.0.0.1", 0), Refuse)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    try:
        profile = ModelProfile(base_url=base, model="m", api_key_env="OPENAI_API_KEY")
        client = OpenAICompatClient(profile, env={"OPENAI_API_KEY": "sk-wrong"})
        with pytest.raises(ModelError) as raised:
            await collect(client)
        await client.aclose()
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert raised.value.message == (
        f"The model server at {base} refused the request (401): check the API key in $OPENAI_API_KEY."
    )


async def test_unreachable_server_says_to_start_it() -> None:
    with socket.socket() as sock:  # a port that was free a moment ago and has no listener
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    base = f"http://127.0.0.1:{port}/v1"
    client = openai_client(base, max_retries=1)
    with pytest.raises(ModelError) as raised:
        await collect(client)
    await client.aclose()
    assert raised.value.message == (
        f"Cannot reach the model server at {base}: start it or set --base-url "
        "(docs/models/index.md)."
    )


async def test_script_exhausted_is_a_clear_model_error() -> None:
    with ScriptedServer([]) as server:
        client = openai_client(server.base_url)
        with pytest.raises(
            ModelError, match=r"rejected the request \(400: the script has no turns left"
        ):
            await collect(client)
        await client.aclose()


async def test_cancel_during_a_slow_first_token_closes_the_connection() -> None:
    with ScriptedServer(
        [{"text": "too late", "fault": "slow_first_token", "delay_s": 60}]
    ) as server:
        client = openai_client(server.base_url)
        task = asyncio.create_task(collect(client))
        assert await asyncio.to_thread(server.wait_until, lambda s: len(s.requests) == 1)
        await asyncio.sleep(0)  # the request is in flight, the server is holding the reply
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert task.cancelled()
        # The server saw the hang-up while still waiting to send the first token.
        assert await asyncio.to_thread(
            server.wait_until, lambda s: s.requests[0].outcome == "disconnected"
        )
        await client.aclose()


async def test_request_timeout_is_retried_then_reported() -> None:
    turns = [{"text": "slow", "fault": ["slow_first_token"] * 2, "delay_s": 5}]
    with ScriptedServer(turns) as server:
        client = openai_client(server.base_url, request_timeout_s=0.2, max_retries=1)
        with pytest.raises(ModelError, match=r"did not answer within 0.2s in 2 attempts"):
            await collect(client)
        await client.aclose()
        assert await asyncio.to_thread(
            server.wait_until, lambda s: [r.outcome for r in s.requests] == ["disconnected"] * 2
        )
