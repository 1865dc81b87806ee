"""The scripted model server: serves a script (see `script.py`) on 127.0.0.1 from a thread.

with ScriptedServer([{"text": "hi"}]) as server:
    client = OpenAICompatClient(ModelProfile(base_url=server.base_url, model="m"))
    ...
    assert server.requests[0].body["stream"] is True
"""

from __future__ import annotations

import contextlib
import socket
import sys
import threading
import time
from collections.abc import Callable
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any, Self

from agent.llm.scripted.http import ScriptedHandler
from agent.llm.scripted.script import FAULTS, RecordedRequest, Script, ScriptState, Turn
from agent.llm.scripted.wire import count_tokens

__all__ = ["FAULTS", "RecordedRequest", "Script", "ScriptedServer", "Turn", "count_tokens"]


class _QuietHTTPServer(ThreadingHTTPServer):
    daemon_threads = True

    def get_request(self) -> tuple[socket.socket, Any]:
        """Each connection without Nagle's delay, as the servers kiln talks to have them
        (asyncio's, Go's): http.server writes a reply's headers and its body (or each SSE
        chunk) apart, and on a connection kept alive each later write would otherwise
        wait for the client's delayed acknowledgement, some 40 ms a reply."""
        sock, address = super().get_request()
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock, address

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client hanging up (cancellation, timeouts) is expected here, not an error."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class ThreadedServer:
    """An HTTP server on 127.0.0.1 served from a background thread, used as a context
    manager; the handler reaches this object as `self.server.<attribute>`. The scripted
    server is one, and so are the tests' strict provider servers."""

    attribute = "scripted"  # the name the handler finds this object under
    thread_name = "scripted-model"

    def __init__(self, handler: type, host: str = "127.0.0.1", port: int = 0) -> None:
        self.closing = threading.Event()
        self._httpd = _QuietHTTPServer((host, port), handler)
        setattr(self._httpd, self.attribute, self)
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    def start(self) -> Self:
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.02},  # so close() returns at once
            name=self.thread_name,
            daemon=True,
        )
        self._thread.start()
        return self

    def close(self) -> None:
        self.closing.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def wait_until(self, predicate: Callable[[Self], bool], timeout: float = 5.0) -> bool:
        """Poll server state (it changes on other threads); True once `predicate` holds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate(self):
                return True
            time.sleep(0.01)
        return predicate(self)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(Exception):
            self.close()


class ScriptedServer(ThreadedServer):
    """Serve a script on 127.0.0.1 from a background thread; use as a context manager."""

    def __init__(self, script: Any, *, host: str = "127.0.0.1", port: int = 0) -> None:
        if isinstance(script, str | Path):
            script = Script.load(script)
        self.state = ScriptState(Script.from_data(script))
        super().__init__(ScriptedHandler, host, port)

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL, ending in /v1 (Anthropic clients accept it too)."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def requests(self) -> list[RecordedRequest]:
        with self.state.lock:
            return list(self.state.requests)

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        """The requests for a reply (chat completions, responses, messages), without the probes a
        client makes of the server (its models, window, tokenizer)."""
        return [
            r
            for r in self.requests
            if r.path.rstrip("/").endswith(("/completions", "/messages", "/responses"))
        ]

    @property
    def turns_served(self) -> int:
        return self.state.cursor
