"""Must hold: `kiln acp` answers a line that is not JSON-RPC with JSON-RPC's own error
(id null; -32700 for a line that is not JSON, -32600 for JSON that is no message) and goes
on serving; a plain client (no SDK) over the real process's stdin and stdout."""

from __future__ import annotations

import json

import pytest

from tests.acp.plain_acp import PlainAcpClient
from tests.acp.test_acp_plain import INITIALIZE


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (b"this is not json\n", -32700),
        (b'{"jsonrpc": "2.0", "method": "initialize", \n', -32700),  # cut off mid-object
        (b"\xff\xfe garbage bytes\n", -32700),
        (b"[1, 2, 3]\n", -32600),
        (b'{"jsonrpc": "2.0", "params": {}}\n', -32600),  # neither method nor id
    ],
)
def test_a_garbage_line_gets_an_error_reply_and_the_agent_goes_on(line: bytes, code: int) -> None:
    client = PlainAcpClient()
    assert client.process.stdin is not None
    client.process.stdin.write(line)
    client.process.stdin.flush()
    reply = client.receive(timeout=30)
    assert reply["jsonrpc"] == "2.0" and reply["id"] is None
    assert reply["error"]["code"] == code and reply["error"]["message"]
    started = client.request("initialize", INITIALIZE)  # still serving, in order
    assert started["protocolVersion"] == 1
    assert client.close() == 0
    assert all(json.loads(raw)["jsonrpc"] == "2.0" for raw in client.lines)
