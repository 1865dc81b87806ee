"""Lines on `kiln acp`'s stdin that are not JSON-RPC get JSON-RPC's own error reply.

The ACP SDK logs a line it cannot parse and drops it, so a client that sent garbage waits
for an answer forever. Every line passes here first: JSON that is a request, notification
or response goes on to the SDK unchanged; anything else is answered at once, as JSON-RPC
2.0 says, with `id: null` (the id cannot be known): -32700 for a line that is not JSON,
-32600 for JSON that is not a message.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

PARSE_ERROR = -32700
INVALID_REQUEST = -32600


def rejection(line: bytes) -> dict[str, Any] | None:
    """The error reply for a line that is no JSON-RPC message; None: the SDK's to read."""
    if not line.strip():
        return None  # blank lines between messages are allowed
    try:
        message = json.loads(line)
    except ValueError:
        return error_reply(PARSE_ERROR, "Parse error: the line is not JSON.")
    if not isinstance(message, dict) or not ("method" in message or "id" in message):
        return error_reply(INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message.")
    return None


def error_reply(code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}


def screened(
    raw: asyncio.StreamReader, writer: asyncio.StreamWriter, limit: int
) -> tuple[asyncio.StreamReader, asyncio.Task[None]]:
    """A reader of `raw`'s valid lines for the SDK, and the task that answers the rest."""
    passed = asyncio.StreamReader(limit=limit)

    async def pump() -> None:
        try:
            while True:
                try:
                    line = await raw.readline()
                except ValueError:  # over the limit: the line is dropped from the buffer
                    reply: dict[str, Any] | None = error_reply(
                        PARSE_ERROR, "Parse error: the line is longer than kiln reads."
                    )
                else:
                    if not line:
                        return
                    reply = rejection(line)
                    if reply is None:
                        passed.feed_data(line)
                        continue
                # One write per frame, as the SDK's sender does: frames never interleave.
                writer.write(json.dumps(reply).encode() + b"\n")
                await writer.drain()
        finally:
            passed.feed_eof()

    return passed, asyncio.ensure_future(pump())
