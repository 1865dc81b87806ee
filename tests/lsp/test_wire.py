"""LSP's framing: messages out of pieces of any size, and one sentence for garbage."""

from __future__ import annotations

import json

import pytest

from agent.lsp.wire import FrameReader, WireError, encode


def test_messages_come_out_whole_whatever_the_pieces() -> None:
    stream = encode({"id": 1, "result": {"ü": "ä" * 100}}) + encode({"method": "x", "params": {}})
    for size in (1, 7, 64, len(stream)):
        reader = FrameReader()
        got = []
        for at in range(0, len(stream), size):
            got += reader.feed(stream[at : at + size])
        assert [m.get("id") for m in got] == [1, None]
        assert got[0]["result"] == {"ü": "ä" * 100} and got[1]["method"] == "x"


def test_the_length_counts_bytes_not_characters() -> None:
    frame = encode({"method": "m", "params": "ü"})
    header, _, body = frame.partition(b"\r\n\r\n")
    assert int(header.split(b":")[1]) == len(body) and json.loads(body)["jsonrpc"] == "2.0"


@pytest.mark.parametrize(
    "data",
    [b"Content-Length: x\r\n\r\n{}", b"Content-Type: a\r\n\r\n{}", b"Content-Length: 2\r\n\r\n[}"],
)
def test_what_is_not_lsp_is_a_wire_error(data: bytes) -> None:
    with pytest.raises(WireError):
        FrameReader().feed(data)
