"""Caps on one model reply: how much it may say and how long it may stream.

A reply past either cap is cut off and not tried again (a server that sent 10 MB once
sends it again), and the run ends with one sentence. The size counts what the reply
means (text, reasoning, tool arguments, in UTF-8 bytes), not the SSE framing around it;
the clock runs from the request to the reply's last byte. The caps are kiln's own: a
caller may pass others (tests do), a repository's files cannot.
"""

from __future__ import annotations

import time

from agent.errors import ModelError
from sandbox.frozen import frozen

# Far above any edit a model should make in one reply (a whole 4096-token reply is about
# 16 KB), far below what a runaway or hostile server can send.
MAX_REPLY_BYTES = 512 * 1024
# A slow local model writing its longest reply on a CPU takes a few minutes.
MAX_REPLY_S = 1200.0


class ReplyCapped(ModelError):
    """A reply cut off at a cap: a ModelError, so never retried."""


@frozen
class ReplyCaps:
    """The most one model reply may hold, in bytes, and take, in seconds."""

    max_bytes: int = MAX_REPLY_BYTES
    max_s: float = MAX_REPLY_S


class ReplyWatch:
    """One attempt's size and clock against the caps."""

    def __init__(self, caps: ReplyCaps) -> None:
        self.caps = caps
        self.started = time.monotonic()

    def check(self, size: int) -> None:
        if size > self.caps.max_bytes:
            raise ReplyCapped(
                f"The model's reply passed {self.caps.max_bytes // 1024} KB of text and tool "
                "arguments, so kiln cut it off; ask for the change in smaller parts."
            )
        if time.monotonic() - self.started > self.caps.max_s:
            raise ReplyCapped(
                f"The model's reply was still streaming after {self.caps.max_s:g} s, so kiln "
                "cut it off; check the model server, or ask for the change in smaller parts."
            )


def utf8_size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))
