"""LSP's wire: JSON-RPC 2.0 messages, each behind a `Content-Length` header."""

from __future__ import annotations

import json
from typing import Any

MAX_MESSAGE_BYTES = 64 << 20  # a server saying more at once is broken, not chatty


class WireError(Exception):
    """The server sent something that is not LSP framing."""


def encode(message: dict[str, Any]) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", **message}, ensure_ascii=False).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class FrameReader:
    """Messages out of a byte stream fed in pieces of any size."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._size: int | None = None  # the body's length, once its header is read

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        self._buffer += data
        messages: list[dict[str, Any]] = []
        while True:
            if self._size is None:
                end = self._buffer.find(b"\r\n\r\n")
                if end < 0:
                    if len(self._buffer) > 8192:
                        raise WireError("a header longer than 8 KB")
                    return messages
                self._size = _content_length(bytes(self._buffer[:end]))
                del self._buffer[: end + 4]
            if len(self._buffer) < self._size:
                return messages
            body = bytes(self._buffer[: self._size])
            del self._buffer[: self._size]
            self._size = None
            try:
                message = json.loads(body)
            except ValueError:
                raise WireError("a body that is not JSON") from None
            if isinstance(message, dict):
                messages.append(message)


def _content_length(header: bytes) -> int:
    for line in header.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            try:
                size = int(value.strip())
            except ValueError:
                break
            if 0 <= size <= MAX_MESSAGE_BYTES:
                return size
            break
    raise WireError(f"no usable Content-Length in {header[:200]!r}")
