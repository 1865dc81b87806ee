"""Must hold: the sandbox's own HTTP to the Docker engine reads every answer a server may
give (sized, chunked, up to the close), maps errors to EngineError, and says the engine is
gone when an answer is cut short. The server is a real one on a unix socket; the engine's
own answers are covered by every Docker test."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.engine import EngineUnavailable
from sandbox.engine_api import Engine, EngineError, EngineNotFound

ANSWERS = {
    b"/sized": b'HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n{"Id": 42}\n',
    b"/chunked": (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        b'5\r\n{"Id"\r\n6;ext=1\r\n: "ab"\r\n1\r\n}\r\n0\r\n\r\n'
    ),
    b"/to-the-close": b"HTTP/1.1 200 OK\r\n\r\n[1, 2, 3]",
    b"/empty": b"HTTP/1.1 204 No Content\r\n\r\n",
    b"/missing": (
        b'HTTP/1.1 404 Not Found\r\nContent-Length: 30\r\n\r\n{"message": "no such thing"}\r\n'
    ),
    b"/plain-error": b"HTTP/1.1 500 Oops\r\nContent-Length: 9\r\n\r\nit broke\n",
    b"/cut-short": b'HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"Id": ',
    b"/cut-chunk": b'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n{"Id"',
    b"/not-http": b"garbage",
    b"/kept-open": b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}",
}


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[tuple[Engine, list[bytes]]]:
    path = str(tmp_path / "engine.sock")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen()
    requests: list[bytes] = []
    kept_open: list[socket.socket] = []  # a server that ignores `Connection: close`

    def answer(conn: socket.socket) -> None:
        request = b""
        while b"\r\n\r\n" not in request:
            request += conn.recv(65536)
        head, _, body = request.partition(b"\r\n\r\n")
        length = next(
            (int(line.split(b":")[1]) for line in head.split(b"\r\n")
             if line.lower().startswith(b"content-length:")),
            0,
        )  # fmt: skip
        while len(body) < length:
            body += conn.recv(65536)
        requests.append(head + b"\r\n\r\n" + body)
        target = head.split(b" ")[1].split(b"?")[0]
        conn.sendall(ANSWERS[target])
        if target == b"/kept-open":
            kept_open.append(conn)
        else:
            conn.close()

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            answer(conn)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield Engine(f"unix://{path}", timeout=5), requests
    server.close()
    for conn in kept_open:
        conn.close()


def test_every_shape_of_answer_is_read(engine: tuple[Engine, list[bytes]]) -> None:
    client, requests = engine
    assert client.request("GET", "/sized") == {"Id": 42}
    assert client.request("GET", "/chunked") == {"Id": "ab"}
    assert client.request("GET", "/to-the-close") == [1, 2, 3]
    assert client.request("POST", "/empty") is None
    started = time.monotonic()
    assert client.request("GET", "/kept-open") == {}  # whole once sized: no wait for a close
    assert time.monotonic() - started < 2
    assert client.request("POST", "/sized", {"a": 1}, {"Cmd": ["true"]}) == {"Id": 42}
    sent = requests[-1]
    assert sent.startswith(b"POST /sized?a=1 HTTP/1.1\r\n")
    assert b"Content-Type: application/json\r\n" in sent
    assert sent.endswith(b'\r\n\r\n{"Cmd": ["true"]}')
    assert b"Content-Length: 0\r\n" in requests[3]  # a POST without a body says so


def test_errors_are_engine_errors(engine: tuple[Engine, list[bytes]]) -> None:
    client, _ = engine
    with pytest.raises(EngineNotFound) as missing:
        client.request("GET", "/missing")
    assert (missing.value.status, missing.value.message) == (404, "no such thing")
    with pytest.raises(EngineError) as broken:
        client.request("GET", "/plain-error")
    assert (broken.value.status, broken.value.message) == (500, "it broke")


@pytest.mark.parametrize("path", ["/cut-short", "/cut-chunk", "/not-http"])
def test_an_answer_cut_short_says_the_engine_is_gone(
    engine: tuple[Engine, list[bytes]], path: str
) -> None:
    client, _ = engine
    with pytest.raises(EngineUnavailable, match="is not running"):
        client.request("GET", path)


def test_no_engine_at_the_socket_is_one_sentence(tmp_path: Path) -> None:
    client = Engine(f"unix://{tmp_path / 'nobody.sock'}", timeout=5)
    with pytest.raises(EngineUnavailable, match="is not running"):
        client.ping()
