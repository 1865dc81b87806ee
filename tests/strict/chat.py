"""The chat-completions wire shared by OpenAI and the servers that copy it: a prompt's
tokens from the request, and one reply as a JSON body or as SSE chunks. Providers differ
in where reasoning and usage go (`ChatStyle`); their rules live in their own modules."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agent.llm.scripted.wire import (
    NativeCall,
    Reply,
    count_tokens,
    fragments,
    text_pieces,
    tokenize,
)
from tests.strict.base import Exchange, JsonReply, Outgoing, StreamReply, UsageReport, sse


@dataclass(frozen=True)
class ChatStyle:
    reasoning_field: str | None = "reasoning_content"  # None: the reasoning is hidden
    usage_in_choice: bool = False  # Kimi: the last chunk's choices[0].usage (F3)
    usage_unasked: bool = False  # streamed usage without stream_options.include_usage
    call_extra: Callable[[int], dict[str, Any] | None] | None = None  # keys on tool call i
    text_extra: dict[str, Any] | None = None  # keys on a text-only reply's last delta


def messages_of(body: dict[str, Any]) -> list[dict[str, Any]]:
    messages = body.get("messages")
    return [m for m in messages if isinstance(m, dict)] if isinstance(messages, list) else []


def content_text(content: Any) -> str:
    if isinstance(content, list):
        return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return str(content or "")


def prompt_tokens(body: dict[str, Any], *, reasoning_read: bool = True) -> list[str]:
    """The prompt as the model reads it: tools, then each message (reasoning passed back
    counts where the provider puts it in the context)."""
    tokens = tokenize(json.dumps(body.get("tools", []), sort_keys=True))
    for message in messages_of(body):
        tokens += tokenize(str(message.get("role", "")))
        if reasoning_read:
            tokens += tokenize(str(message.get("reasoning_content") or ""))
        tokens += tokenize(content_text(message.get("content")))
        for call in message.get("tool_calls") or []:
            if isinstance(call, dict):
                tokens += tokenize(json.dumps(call.get("function", {}), sort_keys=True))
    return tokens


def output_counts(reply: Reply) -> tuple[int, int]:
    """(output tokens with reasoning, reasoning tokens)."""
    reasoning = count_tokens(reply.reasoning)
    return reply.completion_tokens(), reasoning


def openai_usage(prompt: int, cached: int, output: int, reasoning: int) -> dict[str, Any]:
    """Chat completions' usage (A7): cached and reasoning tokens in their details; reasoning
    tokens are inside completion_tokens. Source: openai-python `types/completion_usage.py`."""
    return {
        "prompt_tokens": prompt,
        "completion_tokens": output,
        "total_tokens": prompt + output,
        "prompt_tokens_details": {"cached_tokens": cached, "audio_tokens": 0},
        "completion_tokens_details": {
            "reasoning_tokens": reasoning,
            "audio_tokens": 0,
            "accepted_prediction_tokens": 0,
            "rejected_prediction_tokens": 0,
        },
    }


def _tool_calls(reply: Reply, style: ChatStyle) -> list[dict[str, Any]]:
    calls = []
    for i, call in enumerate(reply.calls):
        entry: dict[str, Any] = {
            "id": call.id,
            "type": "function",
            "function": {"name": call.name, "arguments": call.arguments},
        }
        extra = style.call_extra(i) if style.call_extra else None
        if extra:
            entry.update(extra)
        calls.append(entry)
    return calls


def chat_reply(
    ex: Exchange,
    reply: Reply,
    *,
    turn: int,
    model: str,
    usage: dict[str, Any],
    report: UsageReport,
    style: ChatStyle,
) -> Outgoing:
    body = ex.json
    rid = ex.server.new_id("chatcmpl-")
    if not body.get("stream"):
        message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
        if style.reasoning_field and reply.reasoning:
            message[style.reasoning_field] = reply.reasoning
        if reply.calls:
            message["tool_calls"] = _tool_calls(reply, style)
        elif style.text_extra:
            message.update(style.text_extra)
        payload = {
            "id": rid,
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": reply.finish_reason,
                    "logprobs": None,
                }
            ],
            "usage": usage,
        }
        return JsonReply(payload=payload, turn=turn, usage=report)
    return StreamReply(
        frames=chat_chunks(body, reply, rid, model, usage, style), turn=turn, usage=report
    )


def chat_chunks(
    body: dict[str, Any],
    reply: Reply,
    rid: str,
    model: str,
    usage: dict[str, Any],
    style: ChatStyle,
) -> list[bytes]:
    created = int(time.time())

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": rid,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}],
        }

    chunks = [chunk({"role": "assistant", "content": ""})]
    if style.reasoning_field:
        chunks += [chunk({style.reasoning_field: p}) for p in text_pieces(reply.reasoning)]
    chunks += [chunk({"content": p}) for p in text_pieces(reply.text)]
    for i, call in enumerate(reply.calls):
        chunks += _call_chunks(i, call, style, chunk)
    last = chunk({}, reply.finish_reason)
    if not reply.calls and style.text_extra:
        last["choices"][0]["delta"].update(style.text_extra)
    asked = bool((body.get("stream_options") or {}).get("include_usage"))
    if style.usage_in_choice:
        last["choices"][0]["usage"] = usage
    chunks.append(last)
    if (asked or style.usage_unasked) and not style.usage_in_choice:
        chunks.append({**chunk({}), "choices": [], "usage": usage})
    return [sse(c) for c in chunks] + [b"data: [DONE]\n\n"]


def _call_chunks(
    index: int, call: NativeCall, style: ChatStyle, chunk: Callable[..., dict[str, Any]]
) -> list[dict[str, Any]]:
    head: dict[str, Any] = {
        "index": index,
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": ""},
    }
    extra = style.call_extra(index) if style.call_extra else None
    if extra:
        head.update(extra)
    out = [chunk({"tool_calls": [head]})]
    for part in fragments(call.arguments):
        out.append(chunk({"tool_calls": [{"index": index, "function": {"arguments": part}}]}))
    return out
