"""`StrictServer`: one provider's strict server on 127.0.0.1, from a background thread.

    with StrictServer("openai", script, model="gpt-5") as server:
        ... kiln --base-url server.base_url --model gpt-5 ...
        assert server.refusals == []
        assert [u.output for u in server.usage_reported] == ...

`script` is the scripted server's script (a list of turns: text, tool_calls, reasoning),
served with its accounting: a turn is consumed only by a reply sent whole, so a refused
request gets the same turn again on the next one. A turn may also say
`"redacted_thinking": true` (Anthropic: its thinking comes back as a redacted block).
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from agent.llm.scripted.script import Script, ScriptState, Turn
from agent.llm.scripted.server import ThreadedServer
from tests.strict.base import (
    Exchange,
    JsonReply,
    Outgoing,
    Refusal,
    Refused,
    StreamReply,
    UsageReport,
    common_prefix,
)
from tests.strict.providers import Provider, make_provider


@dataclass
class SeenRequest:
    """One request as it came (`body` parsed from JSON), and what became of it."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    status: int = 0
    refused_by: str | None = None
    turn: int | None = None
    usage: UsageReport | None = None
    client_port: int = 0  # the connection it came on


class StrictServer(ThreadedServer):
    """A provider's server that refuses what the real one refuses; a context manager."""

    attribute = "strict"  # `self.server.strict` in the handler

    def __init__(
        self, profile: str, script: Any = (), *, model: str | None = None, **options: Any
    ) -> None:
        if isinstance(script, str | Path):
            script = json.loads(Path(script).read_text(encoding="utf-8"))
        self.state = ScriptState(
            Script.from_data(list(script) if isinstance(script, tuple) else script)
        )
        self.extras = _turn_extras(script)
        self.secret = os.urandom(32)
        self.lock = threading.Lock()
        # One exchange at a time, its turn consumed before the next is read: a client that
        # reads the last frame and sends its next request at once must not be served the
        # same turn again while this thread has yet to record it.
        self.serving = threading.Lock()
        self.requests_seen: list[SeenRequest] = []
        self.refusals: list[Refusal] = []  # every request a rule refused (ids in `rule`)
        self.usage_reported: list[UsageReport] = []
        self.truncations: list[dict[str, Any]] = []  # Ollama: prompts it cut silently
        self._last_prompt: list[str] = []
        self.provider: Provider = make_provider(profile, self, model, options)
        self.thread_name = f"strict-{self.provider.name}"
        super().__init__(_Handler)

    # --- what tests read --------------------------------------------------------------

    @property
    def root_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """What kiln's --base-url takes for this provider."""
        return self.root_url + self.provider.base_path

    @property
    def model(self) -> str:
        return self.provider.model

    @property
    def requests(self) -> list[SeenRequest]:
        with self.lock:
            return list(self.requests_seen)

    @property
    def chat_requests(self) -> list[SeenRequest]:
        """The requests for a reply (not the probes of models, window or tokenizer)."""
        return [r for r in self.requests if self.provider.is_reply_path(r.path)]

    @property
    def reply_refusals(self) -> list[Refusal]:
        """The refusals of requests for a reply (not of a probe such as an unkeyed
        `GET /v1/models` on Anthropic, which the real API refuses too)."""
        return [r for r in self.refusals if self.provider.is_reply_path(r.path)]

    @property
    def turns_served(self) -> int:
        return self.state.cursor

    # --- what providers use -----------------------------------------------------------

    def take_turn(self, ex: Exchange) -> tuple[int, Turn, dict[str, Any]]:
        picked = self.state.next_turn()
        if picked is None:
            raise self.provider.exhausted(ex, len(self.state.script.turns))
        index, turn, _fault = picked
        return index, turn, self.extras.get(index, {})

    def cached_prefix(self, tokens: list[str]) -> int:
        """Tokens this prompt shares from the start with the previous one (a prefix cache)."""
        with self.lock:
            cached = common_prefix(tokens, self._last_prompt)
            self._last_prompt = list(tokens)
        return cached

    def new_id(self, prefix: str) -> str:
        return self.state.new_id(prefix)


def _turn_extras(script: Any) -> dict[int, dict[str, Any]]:
    """Keys of each turn that the scripted server's `Turn` does not keep."""
    turns = script.get("turns", []) if isinstance(script, dict) else script
    known = set(Turn.__dataclass_fields__) | {"fault"}
    return {
        i: {k: v for k, v in t.items() if k not in known}
        for i, t in enumerate(turns)
        if isinstance(t, dict)
    }


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:
        pass

    @property
    def strict(self) -> StrictServer:
        return self.server.strict  # type: ignore[attr-defined]

    def do_GET(self) -> None:
        self._exchange("GET", None)

    def do_DELETE(self) -> None:
        self._exchange("DELETE", None)

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            body = raw.decode(errors="replace")
        self._exchange("POST", body)

    def _exchange(self, method: str, body: Any) -> None:
        with self.strict.serving:
            self._exchange_alone(method, body)

    def _exchange_alone(self, method: str, body: Any) -> None:
        server = self.strict
        path = urlsplit(self.path).path.rstrip("/") or "/"
        headers = {k.lower(): v for k, v in self.headers.items()}
        seen = SeenRequest(method, path, headers, body, client_port=int(self.client_address[1]))
        with server.lock:
            server.requests_seen.append(seen)
        ex = Exchange(server, method, path, headers, body)
        try:
            reply = server.provider.handle(ex)
        except Refused as refused:
            seen.status, seen.refused_by = refused.status, refused.rule
            if refused.rule != "route":  # a path the provider does not serve breaks no rule
                with server.lock:
                    server.refusals.append(
                        Refusal(refused.rule, refused.status, refused.body, path)
                    )
            reply = JsonReply(status=refused.status, payload=refused.body)
            self._send(reply)
            return
        seen.status, seen.turn = reply.status, reply.turn
        try:
            self._send(reply)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
            return
        if reply.turn is not None:
            server.state.consume(reply.turn)
        if reply.usage is not None:
            seen.usage = reply.usage
            with server.lock:
                server.usage_reported.append(reply.usage)

    def _send(self, reply: Outgoing) -> None:
        if isinstance(reply, StreamReply):
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Transfer-Encoding", "chunked")
            for key, value in reply.headers.items():
                self.send_header(key, value)
            self.end_headers()
            for frame in reply.frames:
                self.wfile.write(f"{len(frame):x}\r\n".encode() + frame + b"\r\n")
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
            return
        assert isinstance(reply, JsonReply)
        data = json.dumps(reply.payload).encode()
        self.send_response(reply.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in reply.headers.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()
