"""Anthropic Messages API, natively: streaming, tool_use blocks, prompt caching, thinking.

The stable prefix is marked for caching with `cache_control: {"type": "ephemeral"}`:
the last tool schema, the last system block, the last content block of every message the
loop flagged with `cache_breakpoint=True`, and a rolling one on the last turn (at most two
message breakpoints, since the API allows four in all). Usage maps cache reads to `cached_input` and cache writes to
`cache_write`, so the meter can price them differently. The API reports no count of
thinking tokens of its own: they are in `output_tokens`, and `Usage.reasoning` stays 0.

Extended thinking (`anthropic_thinking.py`) is on when the profile's effort (or
`thinking_budget`) asks it of a model that thinks by budget; a reply's thinking blocks are
kept in `Message.replay` and go back unchanged, at the start of their turn, while thinking
is on.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Mapping
from typing import Any

from agent.events import Usage
from agent.llm import anthropic_thinking
from agent.llm.anthropic_thinking import ThinkingBlocks
from agent.llm.base import (
    Completion,
    FormatProblem,
    Message,
    ModelEvent,
    ModelProfile,
    ReasoningChunk,
    TextChunk,
    ToolCall,
    ToolSpec,
)
from agent.llm.recovery import check_native_call
from agent.llm.reply_caps import ReplyCaps, ReplyWatch, utf8_size
from agent.llm.retry import Retryable, retrying
from agent.llm.wire_common import (
    HttpModelClient,
    post_stream,
    read_to_end,
    sse_events,
    with_default_path,
)

API_VERSION = "2023-06-01"
DEFAULT_BASE_URL = "https://api.anthropic.com"
EPHEMERAL = {"type": "ephemeral"}
MAX_MESSAGE_BREAKPOINTS = 2
_STOP_REASONS = {"tool_use": "tool_calls", "end_turn": "stop", "max_tokens": "length"}


def to_anthropic_request(
    messages: list[Message], tools: list[ToolSpec], *, thinking: bool = False
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """(system blocks, messages, tools) with cache_control on the stable prefix; with
    `thinking`, each assistant turn led by the thinking blocks it came with (C3)."""
    system: list[dict[str, Any]] = [
        {"type": "text", "text": m.content} for m in messages if m.role == "system"
    ]
    if system:
        system[-1]["cache_control"] = dict(EPHEMERAL)
    wire_tools: list[dict[str, Any]] = [
        {"name": t.name, "description": t.description, "input_schema": t.parameters} for t in tools
    ]
    if wire_tools:
        wire_tools[-1]["cache_control"] = dict(EPHEMERAL)
    wire: list[dict[str, Any]] = []
    marked: list[dict[str, Any]] = []
    for m in messages:
        if m.role == "system":
            continue
        role = "assistant" if m.role == "assistant" else "user"
        blocks = _blocks(m)
        if not blocks:
            continue
        if thinking and m.role == "assistant":
            blocks = [*anthropic_thinking.replayed(m), *blocks]
        if wire and wire[-1]["role"] == role:  # the API wants user/assistant alternating
            wire[-1]["content"].extend(blocks)
        else:
            wire.append({"role": role, "content": blocks})
        if m.cache_breakpoint:  # never a thinking block's: those are sent as they came
            marked.append(blocks[-1])
    # A rolling breakpoint at the end of the conversation: this request writes the cache
    # up to its last turn, and the next request, which only appends, reads all of it.
    if wire and wire[-1]["content"]:
        marked.append(wire[-1]["content"][-1])
    for block in list({id(b): b for b in marked}.values())[-MAX_MESSAGE_BREAKPOINTS:]:
        block["cache_control"] = dict(EPHEMERAL)
    return system, wire, wire_tools


def _blocks(m: Message) -> list[dict[str, Any]]:
    if m.role == "tool":
        return [{"type": "tool_result", "tool_use_id": m.tool_call_id or "", "content": m.content}]
    blocks: list[dict[str, Any]] = []
    if m.content:
        blocks.append({"type": "text", "text": m.content})
    for call in m.tool_calls:
        blocks.append(
            {"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments}
        )
    return blocks


class MessageAssembler:
    """Folds Messages-API stream events into text, thinking, tool calls and usage."""

    def __init__(self) -> None:
        self.text: list[str] = []
        self.thinking = ThinkingBlocks()
        self.blocks: dict[int, dict[str, str]] = {}
        self.usage: dict[str, int] = {}
        self.stop_reason = ""
        self.done = False
        self.size = 0  # UTF-8 bytes of text, thinking and tool input so far

    def add(self, event: dict[str, Any]) -> list[ModelEvent]:
        kind = event.get("type")
        if kind == "message_start":
            self._usage((event.get("message") or {}).get("usage") or {})
        elif kind == "content_block_start":
            block = event.get("content_block") or {}
            index = event.get("index", len(self.blocks))
            if block.get("type") in anthropic_thinking.THINKING_TYPES:
                text = self.thinking.start(index, block)
                self.size += utf8_size(text) + utf8_size(str(block.get("data") or ""))
                return [ReasoningChunk(text)] if text else []
            # Streams send `input: {}` here and the JSON in deltas; some servers send it whole.
            whole = json.dumps(block["input"]) if block.get("input") else ""
            self.size += utf8_size(whole)
            self.blocks[index] = {
                "type": block.get("type", ""),
                "id": block.get("id", ""),
                "name": block.get("name", ""),
                "json": whole,
            }
            if block.get("type") == "text" and block.get("text"):
                self.size += utf8_size(block["text"])
                self.text.append(block["text"])
                return [TextChunk(block["text"])]
        elif kind == "content_block_delta":
            return self._delta(event.get("index", 0), event.get("delta") or {})
        elif kind == "message_delta":
            self.stop_reason = (event.get("delta") or {}).get("stop_reason") or self.stop_reason
            self._usage(event.get("usage") or {})
        elif kind == "message_stop":
            self.done = True
        elif kind == "error":
            error = event.get("error") or {}
            raise Retryable("server", f"the server reported {error.get('type', 'an error')}")
        return []

    def _delta(self, index: int, delta: dict[str, Any]) -> list[ModelEvent]:
        kind = delta.get("type")
        if kind == "text_delta" and delta.get("text"):
            self.size += utf8_size(delta["text"])
            self.text.append(delta["text"])
            return [TextChunk(delta["text"])]
        if kind == "thinking_delta" and delta.get("thinking"):
            self.size += utf8_size(delta["thinking"])
            self.thinking.thinking(index, delta["thinking"])
            return [ReasoningChunk(delta["thinking"])]
        if kind == "signature_delta":
            self.thinking.signature(index, str(delta.get("signature") or ""))
        if kind == "input_json_delta":
            self.blocks.setdefault(index, {"type": "tool_use", "id": "", "name": "", "json": ""})
            self.blocks[index]["json"] += delta.get("partial_json", "")
            self.size += utf8_size(delta.get("partial_json", ""))
        return []

    def _usage(self, usage: dict[str, Any]) -> None:
        for key, value in usage.items():
            if isinstance(value, int):
                self.usage[key] = value

    def tool_calls(self, tools: list[ToolSpec]) -> tuple[list[ToolCall], list[FormatProblem]]:
        calls: list[ToolCall] = []
        problems: list[FormatProblem] = []
        for index in sorted(self.blocks):
            block = self.blocks[index]
            if block["type"] != "tool_use":
                continue
            checked = check_native_call(block["name"], block["json"], tools, block["id"])
            if isinstance(checked, FormatProblem):
                problems.append(checked)
            else:
                calls.append(checked)
        return calls, problems

    def message(self, tools: list[ToolSpec]) -> tuple[Message, list[FormatProblem]]:
        """The reply as one assistant message, its thinking blocks kept to go back."""
        calls, problems = self.tool_calls(tools)
        replay = self.thinking.replay()
        message = Message(
            role="assistant",
            content="".join(self.text),
            tool_calls=tuple(calls),
            reasoning=self.thinking.text(),
            replay=replay,
            replay_api=anthropic_thinking.API if replay else "",
        )
        return message, problems

    def token_usage(self) -> Usage:
        return Usage(
            uncached_input=self.usage.get("input_tokens", 0),
            cached_input=self.usage.get("cache_read_input_tokens", 0),
            cache_write=self.usage.get("cache_creation_input_tokens", 0),
            output=self.usage.get("output_tokens", 0),
        )


class AnthropicClient(HttpModelClient):
    """ModelClient for the Anthropic Messages API (and servers that speak it)."""

    def __init__(
        self,
        profile: ModelProfile,
        *,
        env: Mapping[str, str] | None = None,
        backoff_base_s: float = 1.0,
        caps: ReplyCaps | None = None,
    ) -> None:
        super().__init__(
            profile, with_default_path(profile.base_url or DEFAULT_BASE_URL, "/v1"), env=env,
            backoff_base_s=backoff_base_s, caps=caps,
        )  # fmt: skip
        self._facts = anthropic_thinking.facts_of(profile)

    def stream(
        self,
        messages: list[Message],
        tools: list[ToolSpec],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> AsyncIterator[ModelEvent]:
        return retrying(
            lambda: self._attempt(messages, tools, max_tokens, temperature),
            base_url=self.base_url,
            max_retries=self.profile.max_retries,
            timeout_s=self.profile.request_timeout_s,
            backoff_base_s=self._backoff_base_s,
        )

    def _headers(self, betas: tuple[str, ...] = ()) -> dict[str, str]:
        headers = {"anthropic-version": API_VERSION}
        if self._key:
            headers["x-api-key"] = self._key
        if betas:
            headers["anthropic-beta"] = ",".join(betas)
        return headers

    async def _attempt(
        self,
        messages: list[Message],
        tools: list[ToolSpec],
        max_tokens: int | None,
        temperature: float | None = None,
    ) -> AsyncIterator[ModelEvent]:
        asked = max_tokens or self.profile.max_output_tokens
        thinking = anthropic_thinking.plan(self.profile, asked, self._facts)
        system, wire_messages, wire_tools = to_anthropic_request(
            messages, tools, thinking=thinking.on
        )
        if thinking.budget and not anthropic_thinking.starts_with_thinking(wire_messages):
            thinking = anthropic_thinking.Thinking(0, asked)  # C3: this request goes without
            system, wire_messages, wire_tools = to_anthropic_request(messages, tools)
        body: dict[str, Any] = {
            "model": self.profile.model,
            "max_tokens": thinking.max_tokens,
            "messages": wire_messages,
            "stream": True,
        }
        if system:
            body["system"] = system
        if wire_tools:
            body["tools"] = wire_tools
        # C2: with thinking on no temperature but 1 (none sent), no top_k, top_p or forced
        # tool_choice; a model that takes only its default temperature gets none.
        body.update(thinking.body())
        if temperature is not None and not thinking.on and self._facts.temperature != "default":
            body["temperature"] = temperature
        started = time.monotonic()
        ttft: float | None = None
        parts = MessageAssembler()
        watch = ReplyWatch(self.caps)
        async with post_stream(
            self._http,
            f"{self.base_url}/messages",
            body,
            self._headers(thinking.betas),
            base_url=self.base_url,
            key_hint=self._key_hint,
        ) as response:
            events = sse_events(response, watch)
            async for _, data in events:
                try:
                    event = json.loads(data)
                except ValueError:
                    raise Retryable("cut", "the server sent malformed JSON in the stream") from None
                added = parts.add(event)
                watch.check(parts.size)
                for out in added:
                    if ttft is None:
                        ttft = time.monotonic() - started
                    yield out
                if parts.done:
                    await read_to_end(events)
                    break
        if not parts.done:
            raise Retryable("cut", "the stream ended before message_stop")
        message, problems = parts.message(tools)
        yield Completion(
            message=message,
            usage=parts.token_usage(),
            finish_reason=_STOP_REASONS.get(parts.stop_reason, parts.stop_reason or "stop"),
            ttft_s=ttft,
            duration_s=time.monotonic() - started,
            format_problems=tuple(problems),
        )
