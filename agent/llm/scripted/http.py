"""HTTP handler of the scripted model server (see `script.py` for the script format).

HTTP/1.1 with chunked transfer encoding, like real inference servers, so a stream that
is cut mid-way is an incomplete chunked body the client can tell from a clean end.
"""

from __future__ import annotations

import contextlib
import json
import select
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler
from typing import Any, Protocol
from urllib.parse import urlsplit

from agent.llm.scripted import responses, wire
from agent.llm.scripted.script import RecordedRequest, ScriptState, Turn, build_reply

_BROKEN_JSON = '{"choices": [{"delta": {"content": "unterminated'


class _ClientGone(Exception):
    pass


class Serving(Protocol):
    """What the handler needs of the server that owns it (ScriptedServer)."""

    state: ScriptState
    closing: threading.Event


class ScriptedHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    _delivering: int | None = None  # the turn whose reply is being written, not yet served
    _delivered: int | None = None  # its faults used, once served: for a late hang-up

    def log_message(self, *args: Any) -> None:  # quiet: tests read records
        pass

    @property
    def scripted(self) -> Serving:
        return self.server.scripted  # type: ignore[attr-defined]

    # --- routing -----------------------------------------------------------------

    def do_GET(self) -> None:
        path = urlsplit(self.path).path.rstrip("/")
        record = self._record("GET", None)
        record.outcome = "ok"
        script = self.scripted.state.script
        if path in ("/v1/models", "/models"):
            entry = {
                "id": script.model,
                "object": "model",
                "created": 0,
                "owned_by": "kiln-scripted",
            }
            if script.context_window:
                entry["max_model_len"] = script.context_window  # as vLLM says it
            self._send_json(200, {"object": "list", "data": [entry]})
        elif path == "/props" and script.context_window:  # as llama.cpp's server says it
            self._send_json(200, {"default_generation_settings": {"n_ctx": script.context_window}})
        else:
            self._send_json(404, {"error": {"message": f"no route {path}", "type": "not_found"}})

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            body = None
        record = self._record("POST", body)
        path = urlsplit(self.path).path.rstrip("/")
        if not isinstance(body, dict):
            record.status, record.outcome = 400, "error"
            self._send_json(400, _error("invalid_request_error", "the body is not a JSON object"))
        elif path.endswith("/chat/completions"):
            self._serve(record, body, anthropic=False)
        elif path.endswith("/messages"):
            self._serve(record, body, anthropic=True)
        elif path.endswith("/responses"):
            self._serve(record, body, anthropic=False, responses_api=True)
        elif path == "/tokenize":  # llama.cpp's: the server's own count of a text
            record.outcome = "ok"
            tokens = wire.tokenize(str(body.get("content", "")))
            self._send_json(200, {"tokens": list(range(len(tokens)))})
        else:
            record.status, record.outcome = 404, "error"
            self._send_json(404, _error("not_found", f"no route {path}"))

    def _record(self, method: str, body: Any) -> RecordedRequest:
        headers = {k.lower(): v for k, v in self.headers.items()}
        record = RecordedRequest(
            method=method, path=self.path, headers=headers, body=body,
            client_port=int(self.client_address[1]),
        )  # fmt: skip
        state = self.scripted.state
        with state.lock:
            state.requests.append(record)
        return record

    # --- one scripted reply ------------------------------------------------------

    def _serve(
        self,
        record: RecordedRequest,
        body: dict[str, Any],
        *,
        anthropic: bool,
        responses_api: bool = False,
    ) -> None:
        state = self.scripted.state
        picked = state.next_turn(_first_user(body))
        if picked is None:
            record.status, record.outcome = 400, "error"
            message = f"the script has no turns left ({len(state.script.turns)} served)"
            self._send_json(400, _error("invalid_request_error", message))
            return
        index, turn, fault = picked
        record.turn, record.fault = index, fault
        if fault in ("429", "500"):
            record.status, record.outcome = int(fault), "fault"
            kind = "rate_limit_error" if fault == "429" else "api_error"
            extra = {"Retry-After": turn.retry_after} if fault == "429" else {}
            self._send_json(int(fault), _error(kind, f"scripted fault {fault}"), extra)
            return
        reply = build_reply(turn, fault, index)
        record.completion_tokens = reply.completion_tokens()
        if anthropic:
            uncached, read, write = state.anthropic_prompt(body)
            record.prompt_tokens, record.cached_tokens = uncached + read + write, read
            record.cache_write_tokens = write
            usage = wire.anthropic_usage(uncached, read, write, record.completion_tokens)
        elif responses_api:
            record.prompt_tokens, record.cached_tokens = state.responses_prompt(body)
            usage = responses.usage(
                record.prompt_tokens,
                record.cached_tokens,
                record.completion_tokens,
                responses.reasoning_tokens(reply),
            )
        else:
            record.prompt_tokens, record.cached_tokens = state.openai_prompt(body)
            usage = wire.openai_usage(
                record.prompt_tokens, record.cached_tokens, record.completion_tokens
            )
        window = state.script.context_window
        if window and record.prompt_tokens > window:
            record.status, record.outcome = 400, "over_window"
            message = (
                f"the request exceeds the available context size ({record.prompt_tokens} "
                f"tokens, the context is {window})"
            )
            self._send_json(400, _error("exceed_context_size_error", message))
            return
        # The turn is consumed before the reply's last bytes go out (`_deliver`): a client
        # that has read them may send its next request at once, and must find the next turn.
        self._delivering = index if fault in (None, "slow_first_token") else None
        self._delivered = None
        try:
            if responses_api:
                self._respond(record, turn, fault, reply, usage, body)
            elif body.get("stream"):
                self._stream(record, turn, fault, reply, usage, body, anthropic)
            else:
                self._whole(reply, fault, usage, anthropic)
        except (_ClientGone, BrokenPipeError, ConnectionResetError):
            record.outcome = "disconnected"
            self.close_connection = True
            if self._delivered is not None:
                state.unconsume(index, self._delivered)
            return
        finally:
            self._delivering = None
        if record.outcome == "pending":
            record.outcome = "ok" if fault in (None, "slow_first_token") else "fault"

    def _deliver(self) -> None:
        """Called just before the last bytes of a reply are written: its turn is served."""
        if self._delivering is not None:
            self._delivered = self.scripted.state.consume(self._delivering)
            self._delivering = None

    def _whole(
        self, reply: wire.Reply, fault: str | None, usage: dict[str, Any], anthropic: bool
    ) -> None:
        script = self.scripted.state.script
        if fault == "malformed_json" and not reply.calls:
            self._send_raw(200, _BROKEN_JSON.encode(), "application/json")
            return
        if anthropic:
            payload = wire.anthropic_message(
                reply, script.model, self.scripted.state.new_id("msg_"), usage
            )
        else:
            payload = wire.openai_message(
                reply, script.model, self.scripted.state.new_id("chatcmpl-"), usage
            )
            if "no_usage" in script.quirks:
                payload.pop("usage")
        self._send_json(200, payload)

    def _respond(
        self,
        record: RecordedRequest,
        turn: Turn,
        fault: str | None,
        reply: wire.Reply,
        usage: dict[str, Any],
        body: dict[str, Any],
    ) -> None:
        """A Responses API reply: streamed as named events, or the response object whole."""
        model, rid = self.scripted.state.script.model, self.scripted.state.new_id("")
        if body.get("stream"):
            frames = [
                f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()
                for name, data in responses.events(reply, model, rid, usage)
            ]
            self._send_frames(record, turn, fault, frames)
        else:
            self._send_json(200, responses.response_object(reply, model, rid, usage))

    def _stream(
        self,
        record: RecordedRequest,
        turn: Turn,
        fault: str | None,
        reply: wire.Reply,
        usage: dict[str, Any],
        body: dict[str, Any],
        anthropic: bool,
    ) -> None:
        script = self.scripted.state.script
        quirks = script.quirks
        frames: list[bytes]
        if anthropic:
            events = wire.anthropic_events(
                reply, script.model, self.scripted.state.new_id("msg_"), usage
            )
            frames = [
                f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in events
            ]
        else:
            wants_usage = bool((body.get("stream_options") or {}).get("include_usage"))
            send_usage = usage if wants_usage and "no_usage" not in quirks else None
            chunks = wire.openai_chunks(
                reply, script.model, self.scripted.state.new_id("chatcmpl-"), send_usage, quirks
            )
            frames = [f"data: {json.dumps(c)}\n\n".encode() for c in chunks]
            if "no_done" not in quirks:
                frames.append(b"data: [DONE]\n\n")
        if fault == "malformed_json" and not reply.calls:
            frames.insert(1, f"data: {_BROKEN_JSON}\n\n".encode())
        if "comments" in quirks:
            frames.insert(0, b": keep-alive\n\n")
            frames.insert(len(frames) // 2, b": processing\n\n")
        self._send_frames(record, turn, fault, frames)

    def _send_frames(
        self, record: RecordedRequest, turn: Turn, fault: str | None, frames: list[bytes]
    ) -> None:
        """SSE frames over chunked transfer, with the turn's timing faults."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.wfile.flush()
        if fault == "slow_first_token":
            self._wait_or_notice_hangup(turn.delay_s)
        if fault == "cut":
            for frame in frames[: max(1, len(frames) // 2)]:
                self._chunk(frame)
            record.outcome = "fault"
            self.close_connection = True
            with contextlib.suppress(OSError):
                self.connection.shutdown(socket.SHUT_RDWR)
            return
        for number, frame in enumerate(frames, 1):
            if turn.stream_delay_s:
                self._wait_or_notice_hangup(turn.stream_delay_s)
            if number == len(frames):
                self._deliver()
            self._chunk(frame)
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    # --- low level -------------------------------------------------------------------

    def _wait_or_notice_hangup(self, delay_s: float) -> None:
        deadline = time.monotonic() + delay_s
        closing = self.scripted.closing
        while time.monotonic() < deadline and not closing.is_set():
            if self._client_gone():
                raise _ClientGone
            time.sleep(0.01)

    def _client_gone(self) -> bool:
        readable, _, _ = select.select([self.connection], [], [], 0)
        if not readable:
            return False
        try:
            return self.connection.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def _send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        self._send_raw(status, json.dumps(payload).encode(), "application/json", headers)

    def _send_raw(
        self, status: int, data: bytes, content_type: str, headers: dict[str, str] | None = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self._deliver()
        self.wfile.write(data)
        self.wfile.flush()


def _error(kind: str, message: str) -> dict[str, Any]:
    """An error body both OpenAI- and Anthropic-style clients understand."""
    return {"type": "error", "error": {"type": kind, "message": message}}


def _first_user(body: dict[str, Any]) -> str:
    """The text of a request's first user message (Chat Completions, Messages, Responses)."""
    messages = body.get("messages") or body.get("input") or []
    for message in messages if isinstance(messages, list) else []:
        if isinstance(message, dict) and message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, list):
                return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
            return str(content or "")
    return ""
