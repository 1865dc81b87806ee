"""What every strict server shares: a refusal, one exchange, the replies it sends, usage.

A provider module turns an `Exchange` (one HTTP request) into an `Outgoing` reply, or
raises `Refused` from one of its rules. A rule is one small function named after its id
in `/work/shared/reference/hosted-api-rules.md`, with its source in a comment.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agent.llm.scripted.script import Turn, build_reply
from agent.llm.scripted.wire import NativeCall, Reply, count_tokens, tokenize

if TYPE_CHECKING:
    from tests.strict.server import StrictServer

# What a thinking model "thinks" when the script gives a turn no reasoning: real thinking
# models always think at the start of a turn, and what must come back depends on it.
DEFAULT_REASONING = "Thinking about what to do next."

__all__ = [
    "DEFAULT_REASONING",
    "Exchange",
    "JsonReply",
    "Outgoing",
    "Refusal",
    "Refused",
    "StreamReply",
    "UsageReport",
    "count_tokens",
    "tokenize",
]


class Refused(Exception):
    """A rule refused the request: the provider's status and exact error body."""

    def __init__(self, rule: str, status: int, body: Any) -> None:
        super().__init__(f"{rule}: {status} {json.dumps(body)}")
        self.rule, self.status, self.body = rule, status, body


@dataclass(frozen=True)
class Refusal:
    """One refused request, as `StrictServer.refusals` lists it."""

    rule: str
    status: int
    body: Any
    path: str


@dataclass(frozen=True)
class UsageReport:
    """What the server reported as usage for one reply: `raw` as sent, and its numbers.

    `prompt` is every input token (cached, written or not); `output` every output token,
    reasoning included; `cached` tokens read from a cache, `cache_write` written to one."""

    path: str
    raw: dict[str, Any]
    prompt: int
    cached: int
    output: int
    reasoning: int = 0
    cache_write: int = 0

    @property
    def uncached(self) -> int:
        return self.prompt - self.cached - self.cache_write


@dataclass
class Outgoing:
    """A reply to send. `turn` is the script turn it serves (consumed once sent whole)."""

    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    turn: int | None = None
    usage: UsageReport | None = None


@dataclass
class JsonReply(Outgoing):
    payload: Any = None


@dataclass
class StreamReply(Outgoing):
    frames: list[bytes] = field(default_factory=list)
    content_type: str = "text/event-stream"


def sse(data: Any, event: str | None = None) -> bytes:
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {json.dumps(data)}\n\n".encode()


@dataclass
class Exchange:
    """One request as the server read it."""

    server: StrictServer
    method: str
    path: str
    headers: dict[str, str]
    body: Any

    @property
    def json(self) -> dict[str, Any]:
        return self.body if isinstance(self.body, dict) else {}

    def take_turn(self) -> tuple[int, Turn, dict[str, Any]]:
        """The turn to serve now (not consumed until sent whole), or raises via the
        provider's own error shape when the script is over."""
        return self.server.take_turn(self)


def reply_for(turn: Turn, index: int, id_prefix: str, reasoning: str) -> Reply:
    """What the model says for `turn`, its calls' ids in the provider's style."""
    reply = build_reply(turn, None, index)
    reply.reasoning = reasoning
    reply.calls = [
        NativeCall(f"{id_prefix}{index}_{i}", c.name, c.arguments)
        for i, c in enumerate(reply.calls)
    ]
    return reply


def common_prefix(a: list[str], b: list[str]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def sign(secret: bytes, kind: str, text: str) -> str:
    """An HMAC of `text`: a server's own signature, so an altered or foreign one fails."""
    digest = hmac.new(secret, f"{kind}\0{text}".encode(), hashlib.sha256).digest()
    return base64.b64encode(digest).decode()


def seal(secret: bytes, kind: str, text: str) -> str:
    """`text` carried opaquely (redacted thinking, encrypted reasoning) with its HMAC."""
    payload = base64.b64encode(text.encode()).decode()
    return f"{payload}.{sign(secret, kind, text)}"


def unseal(secret: bytes, kind: str, sealed: Any) -> str | None:
    """The text `seal` carried, or None when it was altered or sealed elsewhere."""
    if not isinstance(sealed, str) or "." not in sealed:
        return None
    payload, _, mac = sealed.partition(".")
    try:
        text = base64.b64decode(payload.encode(), validate=True).decode()
    except ValueError:
        return None
    return text if hmac.compare_digest(mac, sign(secret, kind, text)) else None


def listed(values: list[str]) -> str:
    """'a', 'b', and 'c' (as OpenAI lists supported values)."""
    quoted = [f"'{v}'" for v in values]
    if len(quoted) <= 2:
        return " and ".join(quoted)
    return ", ".join(quoted[:-1]) + f", and {quoted[-1]}"
