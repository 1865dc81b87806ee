"""Wire rendering for the scripted model server: one reply as OpenAI or Anthropic frames.

Kept apart from the HTTP plumbing in `http.py` so each file stays small. Everything
here is pure: a `Reply` (what the model "said") goes in, a list of JSON-able frames
comes out. Streaming splits text into small pieces and tool arguments into fragments so
clients must assemble them the way they would against a real server.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

_TOKEN_RE = re.compile(r"\w+|[^\w\s]")
_PIECE_RE = re.compile(r"\s*\S+\s*")


def count_tokens(text: str) -> int:
    """A deterministic stand-in tokenizer: words and single punctuation marks."""
    return len(_TOKEN_RE.findall(text))


def tokenize(text: str) -> list[str]:
    return _TOKEN_RE.findall(text)


def text_pieces(text: str, words_per_piece: int = 2) -> list[str]:
    """Split text into streaming pieces that concatenate back to exactly `text`."""
    words = _PIECE_RE.findall(text)
    lead = text[: len(text) - len("".join(words))] if words else text
    pieces = [
        "".join(words[i : i + words_per_piece]) for i in range(0, len(words), words_per_piece)
    ]
    if lead and pieces:
        pieces[0] = lead + pieces[0]
    elif lead:
        pieces = [lead]
    return pieces


def fragments(raw: str, size: int = 7) -> list[str]:
    # Long arguments (a big file written whole) in at most about a thousand frames.
    size = max(size, len(raw) // 1000)
    return [raw[i : i + size] for i in range(0, len(raw), size)] or [""]


@dataclass
class NativeCall:
    id: str
    name: str
    arguments: str  # the JSON text sent on the wire, possibly broken on purpose


@dataclass
class Reply:
    text: str = ""
    reasoning: str = ""
    calls: list[NativeCall] = field(default_factory=list)

    @property
    def finish_reason(self) -> str:
        return "tool_calls" if self.calls else "stop"

    def completion_tokens(self) -> int:
        return (
            count_tokens(self.text)
            + count_tokens(self.reasoning)
            + sum(count_tokens(c.name) + count_tokens(c.arguments) for c in self.calls)
        )


def text_tool_call(name: str, arguments: dict[str, Any], style: str) -> str:
    """A tool call written into the reply text, the way small models do it."""
    if style == "function_parameters":
        return json.dumps({"function": name, "parameters": arguments})
    body = json.dumps({"name": name, "arguments": arguments})
    if style == "fenced":
        return f"I will call a tool.\n```json\n{body}\n```"
    if style == "tags":
        return f"<tool_call>\n{body}\n</tool_call>"
    if style == "bare":
        return body
    raise ValueError(f"unknown text_tool_call style {style!r}")


# --- OpenAI chat completions ---------------------------------------------------------


def openai_usage(prompt: int, cached: int, completion: int) -> dict[str, Any]:
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
        "prompt_tokens_details": {"cached_tokens": cached},
    }


def openai_message(reply: Reply, model: str, rid: str, usage: dict[str, Any]) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
    if reply.reasoning:
        message["reasoning_content"] = reply.reasoning
    if reply.calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in reply.calls
        ]
    return {
        "id": rid,
        "object": "chat.completion",
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": reply.finish_reason}],
        "usage": usage,
    }


def openai_chunks(
    reply: Reply, model: str, rid: str, usage: dict[str, Any] | None, quirks: frozenset[str]
) -> list[dict[str, Any]]:
    """The `data:` payloads of a streamed reply (without the final `[DONE]`)."""

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "object": "chat.completion.chunk",
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
        if "no_ids" not in quirks:
            out["id"] = rid
        return out

    frames = [chunk({"role": "assistant", "content": ""})]
    if "empty_choices" in quirks:
        frames.append({"object": "chat.completion.chunk", "model": model, "choices": []})
    frames += [chunk({"reasoning_content": p}) for p in text_pieces(reply.reasoning)]
    frames += [chunk({"content": p}) for p in text_pieces(reply.text)]
    for index, call in enumerate(reply.calls):
        head: dict[str, Any] = {"index": index, "type": "function", "function": {"name": call.name}}
        if "no_ids" not in quirks:
            head["id"] = call.id
        head["function"]["arguments"] = ""
        frames.append(chunk({"tool_calls": [head]}))
        for part in fragments(call.arguments):
            frames.append(
                chunk({"tool_calls": [{"index": index, "function": {"arguments": part}}]})
            )
    frames.append(chunk({}, reply.finish_reason))
    if usage is not None:
        frames.append(
            {"object": "chat.completion.chunk", "model": model, "choices": [], "usage": usage}
        )
    return frames


# --- Anthropic Messages --------------------------------------------------------------


def anthropic_usage(uncached: int, read: int, write: int, output: int) -> dict[str, Any]:
    return {
        "input_tokens": uncached,
        "cache_read_input_tokens": read,
        "cache_creation_input_tokens": write,
        "output_tokens": output,
    }


def anthropic_content(reply: Reply) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    if reply.reasoning:
        blocks.append({"type": "thinking", "thinking": reply.reasoning, "signature": "scripted"})
    if reply.text:
        blocks.append({"type": "text", "text": reply.text})
    for call in reply.calls:
        try:
            parsed: Any = json.loads(call.arguments)
        except ValueError:
            parsed = {}
        blocks.append({"type": "tool_use", "id": call.id, "name": call.name, "input": parsed})
    return blocks


def anthropic_stop_reason(reply: Reply) -> str:
    return "tool_use" if reply.calls else "end_turn"


def anthropic_message(reply: Reply, model: str, rid: str, usage: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": rid,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": anthropic_content(reply),
        "stop_reason": anthropic_stop_reason(reply),
        "stop_sequence": None,
        "usage": usage,
    }


def anthropic_events(
    reply: Reply, model: str, rid: str, usage: dict[str, Any]
) -> list[tuple[str, dict[str, Any]]]:
    """(event name, data) pairs of a streamed Messages reply."""
    start_usage = {**usage, "output_tokens": 1}
    events: list[tuple[str, dict[str, Any]]] = [
        (
            "message_start",
            {
                "type": "message_start",
                "message": {
                    "id": rid,
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": start_usage,
                },
            },
        ),
        ("ping", {"type": "ping"}),
    ]
    index = 0

    def block(start: dict[str, Any], deltas: list[dict[str, Any]]) -> None:
        nonlocal index
        events.append(
            (
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": start},
            )
        )
        for delta in deltas:
            events.append(
                (
                    "content_block_delta",
                    {"type": "content_block_delta", "index": index, "delta": delta},
                )
            )
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
        index += 1

    if reply.reasoning:
        block(
            {"type": "thinking", "thinking": ""},
            [{"type": "thinking_delta", "thinking": p} for p in text_pieces(reply.reasoning)]
            + [{"type": "signature_delta", "signature": "scripted"}],
        )
    if reply.text:
        block(
            {"type": "text", "text": ""},
            [{"type": "text_delta", "text": p} for p in text_pieces(reply.text)],
        )
    for call in reply.calls:
        block(
            {"type": "tool_use", "id": call.id, "name": call.name, "input": {}},
            [{"type": "input_json_delta", "partial_json": p} for p in fragments(call.arguments)],
        )
    events.append(
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": anthropic_stop_reason(reply), "stop_sequence": None},
                "usage": {"output_tokens": usage["output_tokens"]},
            },
        )
    )
    events.append(("message_stop", {"type": "message_stop"}))
    return events
