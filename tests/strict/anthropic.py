"""Anthropic's Messages API (`POST /v1/messages`, `GET /v1/models`,
`POST /v1/messages/count_tokens`) with the rules it checks (C1-C5, C8-C11) and its
stream with thinking (C6).

Thinking blocks are signed with the server's HMAC of their text, so a block altered or
taken from another server fails C4 as the real API fails it. With thinking on, a turn
that starts a new assistant turn always thinks (the script's `reasoning`, or a default);
with interleaved thinking (C7's beta header) a turn inside the tool loop thinks when the
script gives it reasoning. Usage follows the request's cache_control breakpoints."""

from __future__ import annotations

import json
import re
from typing import Any

from agent.llm.scripted.script import Script, ScriptState
from agent.llm.scripted.wire import Reply, fragments, text_pieces
from tests.strict.base import (
    DEFAULT_REASONING,
    Exchange,
    JsonReply,
    Outgoing,
    Refused,
    StreamReply,
    UsageReport,
    reply_for,
    seal,
    sign,
    sse,
    unseal,
)
from tests.strict.chat import output_counts
from tests.strict.providers import Provider

MESSAGES = "/v1/messages"
INTERLEAVED = "interleaved-thinking-2025-05-14"
DOCS = "https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking"
CONSIDERATIONS = f"{DOCS}#important-considerations-when-using-extended-thinking"

# C9: the most output tokens a model may be asked for. Source: OpenHands/software-agent-sdk#596
# (claude-sonnet-4-5: 64000). not confirmed: the other rows (Anthropic's models overview).
OUTPUT_LIMITS = [
    (r"claude-sonnet-4-5", 64000),
    (r"claude-haiku-4-5", 64000),
    (r"claude-opus-4-5", 64000),
    (r"claude-opus-4-6", 128000),
    (r"claude-sonnet-4-6", 64000),
    (r"claude-opus-4-1", 32000),
    (r"claude-opus-4", 32000),
    (r"claude-sonnet-4", 64000),
    (r"claude-3-7-sonnet", 64000),
    (r"claude-3-5-haiku", 8192),
]


def error(message: str, kind: str = "invalid_request_error") -> dict[str, Any]:
    return {"type": "error", "error": {"type": kind, "message": message}}


def _blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _messages(body: dict[str, Any]) -> list[dict[str, Any]]:
    messages = body.get("messages")
    return [m for m in messages if isinstance(m, dict)] if isinstance(messages, list) else []


def thinking_on(body: dict[str, Any]) -> bool:
    return (body.get("thinking") or {}).get("type") in ("enabled", "adaptive")


def _is_tool_results(message: dict[str, Any]) -> bool:
    blocks = _blocks(message)
    return message.get("role") == "user" and bool(blocks) and blocks[0].get("type") == "tool_result"


# --- rules ----------------------------------------------------------------------------


def c11_api_key(headers: dict[str, str]) -> None:
    """C11: every request needs `x-api-key`. Source: anthropic-sdk-python (the header it
    sends). not confirmed: the 401 text."""
    if not headers.get("x-api-key"):
        raise Refused("C11", 401, error("x-api-key header is required", "authentication_error"))


def c9_output_limit(body: dict[str, Any]) -> None:
    """C9: max_tokens above the model's output limit. Source: OpenHands/software-agent-sdk#596."""
    model, asked = str(body.get("model", "")), body.get("max_tokens")
    for pattern, limit in OUTPUT_LIMITS:
        if re.match(pattern, model):
            if isinstance(asked, int) and asked > limit:
                message = f"max_tokens: {asked} > {limit}, which is the maximum allowed number of output tokens for {model}"
                raise Refused("C9", 400, error(message))
            return


def c10_cache_breakpoints(body: dict[str, Any]) -> None:
    """C10: at most 4 blocks with cache_control. Source: kiln's anthropic.py comment (the
    limit). not confirmed: the text."""
    system = body.get("system")
    parts = [*(body.get("tools") or []), *(system if isinstance(system, list) else [])]
    for message in _messages(body):
        parts += _blocks(message)
    found = sum(1 for p in parts if isinstance(p, dict) and p.get("cache_control"))
    if found > 4:
        raise Refused(
            "C10",
            400,
            error(f"A maximum of 4 blocks with cache_control may be provided. Found {found}."),
        )


def c1_thinking_budget(body: dict[str, Any], headers: dict[str, str]) -> None:
    """C1: budget_tokens at least 1024 and below max_tokens (interleaved thinking may
    exceed it). Source: anthropic-sdk-python thinking_config_enabled_param.py; llm.js#30;
    antigravity2api-nodejs#149; obsidian-copilot#1591; docs (interleaved exception)."""
    thinking = body.get("thinking") or {}
    if thinking.get("type") != "enabled":
        return
    budget = thinking.get("budget_tokens")
    if not isinstance(budget, int) or budget < 1024:
        raise Refused(
            "C1",
            400,
            error("thinking.enabled.budget_tokens: Input should be greater than or equal to 1024"),
        )
    interleaved = INTERLEAVED in headers.get("anthropic-beta", "")
    if not interleaved and isinstance(body.get("max_tokens"), int) and body["max_tokens"] <= budget:
        message = (
            "`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at "
            "https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size"
        )
        raise Refused("C1", 400, error(message))


def c2_sampling_with_thinking(body: dict[str, Any]) -> None:
    """C2: with thinking on, temperature only 1, top_k unset, top_p unset or >= 0.95, no
    forced tool use. Source: one-hub#529, quarkus-langchain4j#1812, LibreChat#6023
    (temperature, top_k texts); lite.koboldai.net#108 (docs quote); Semoss#1655 (top_p).
    not confirmed: the top_p and forced-tool texts."""
    if not thinking_on(body):
        return
    temperature = body.get("temperature")
    if temperature is not None and temperature != 1:
        message = f"`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at {CONSIDERATIONS}"
        raise Refused("C2", 400, error(message))
    if body.get("top_k") is not None:
        message = f"`top_k` must be unset when thinking is enabled. Please consult our documentation at {CONSIDERATIONS}"
        raise Refused("C2", 400, error(message))
    top_p = body.get("top_p")
    if top_p is not None and top_p < 0.95:
        message = f"`top_p` must be greater than or equal to 0.95 or unset when thinking is enabled. Please consult our documentation at {CONSIDERATIONS}"
        raise Refused("C2", 400, error(message))
    if (body.get("tool_choice") or {}).get("type") in ("any", "tool"):
        raise Refused(
            "C2", 400, error("Thinking may not be enabled when tool_choice forces tool use.")
        )


def c8_tool_pairing(body: dict[str, Any]) -> None:
    """C8: tool_use answered by tool_result blocks at the start of the next message; a
    tool_result answers a tool_use of the previous message.
    Source: claude-code#5060, #13460; anthropic-sdk-typescript#653 (third text)."""
    messages = _messages(body)
    for n, message in enumerate(messages):
        blocks = _blocks(message)
        previous = _blocks(messages[n - 1]) if n else []
        asked = [b.get("id") for b in previous if b.get("type") == "tool_use"]
        for k, block in enumerate(blocks):
            if block.get("type") == "tool_result" and block.get("tool_use_id") not in asked:
                message_text = (
                    f"messages.{n}.content.{k}: unexpected `tool_use_id` found in `tool_result` blocks: "
                    f"{block.get('tool_use_id')}. Each `tool_result` block must have a corresponding "
                    "`tool_use` block in the previous message."
                )
                raise Refused("C8", 400, error(message_text))
        ids = [b.get("id") for b in blocks if b.get("type") == "tool_use"]
        if not ids or n + 1 >= len(messages):
            continue
        following = _blocks(messages[n + 1])
        leading = []
        for block in following:
            if block.get("type") != "tool_result":
                break
            leading.append(block.get("tool_use_id"))
        anywhere = [b.get("tool_use_id") for b in following if b.get("type") == "tool_result"]
        missing = [i for i in ids if i not in leading]
        if missing and all(i in anywhere for i in missing):
            message_text = (
                f"Did not find {len(missing)} tool_result block(s) at the beginning of this message. "
                "Messages following tool_use blocks must begin with a matching number of tool_result blocks."
            )
            raise Refused("C8", 400, error(message_text))
        if missing:
            message_text = (
                f"messages.{n}: `tool_use` ids were found without `tool_result` blocks immediately after: "
                f"{', '.join(str(i) for i in missing)}. Each `tool_use` block must have a corresponding "
                "`tool_result` block in the next message."
            )
            raise Refused("C8", 400, error(message_text))


def c5_thinking_off(body: dict[str, Any]) -> None:
    """C5: thinking off, a thinking block in the final assistant message. Source: forgecode#1853."""
    messages = _messages(body)
    if thinking_on(body) or not messages or messages[-1].get("role") != "assistant":
        return
    for k, block in enumerate(_blocks(messages[-1])):
        if block.get("type") in ("thinking", "redacted_thinking"):
            message = (
                f"messages.{len(messages) - 1}.content.{k}: When thinking is disabled, an `assistant` message "
                "in the final position cannot contain `thinking`. To use thinking blocks, enable `thinking` in your request."
            )
            raise Refused("C5", 400, error(message))


def c3_thinking_first(body: dict[str, Any]) -> None:
    """C3: thinking on and in a tool loop, the assistant turn answered by the last
    tool_result starts with its thinking / redacted_thinking block. The turn is every
    assistant message since the last user message that is not only tool results; its first
    message is checked (without interleaved thinking later ones carry none).
    Source: opencode#3077, kilocode#5219, haystack-core-integrations#2146;
    anthropic-sdk-python thinking_block.py."""
    messages = _messages(body)
    if not thinking_on(body) or not messages or not _is_tool_results(messages[-1]):
        return
    start = 0
    for n, message in enumerate(messages):
        if message.get("role") == "user" and not _is_tool_results(message):
            start = n + 1
    if start >= len(messages) or messages[start].get("role") != "assistant":
        return
    blocks = _blocks(messages[start])
    found = blocks[0].get("type") if blocks else "nothing"
    if found not in ("thinking", "redacted_thinking"):
        text = (
            f"messages.{start}.content.0.type: Expected `thinking` or `redacted_thinking`, but found `{found}`. "
            "When `thinking` is enabled, a final `assistant` message must start with a thinking block "
            "(preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include "
            "thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult "
            "our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
        )
        raise Refused("C3", 400, error(text))


def c4_signatures(body: dict[str, Any], secret: bytes) -> None:
    """C4: a thinking block altered in any way (or not this server's) is refused.
    Source: claude-code#10627; anthropic-sdk-python#1598 (maintainer). Checked with
    thinking on. not confirmed: the redacted_thinking text."""
    if not thinking_on(body):
        return
    for n, message in enumerate(_messages(body)):
        if message.get("role") != "assistant":
            continue
        for k, block in enumerate(_blocks(message)):
            kind = block.get("type")
            if kind == "thinking" and block.get("signature") != sign(
                secret, "thinking", str(block.get("thinking", ""))
            ):
                raise Refused(
                    "C4",
                    400,
                    error(f"messages.{n}.content.{k}: Invalid `signature` in `thinking` block"),
                )
            if (
                kind == "redacted_thinking"
                and unseal(secret, "redacted", block.get("data")) is None
            ):
                raise Refused(
                    "C4",
                    400,
                    error(f"messages.{n}.content.{k}: Invalid `data` in `redacted_thinking` block"),
                )


# --- the server -----------------------------------------------------------------------


class AnthropicServer(Provider):
    reply_paths = (MESSAGES,)

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.routes = {
            ("POST", MESSAGES): self.messages,
            ("POST", "/v1/messages/count_tokens"): self.count_tokens,
            ("GET", "/v1/models"): self.models,
        }

    def error_body(self, status: int, message: str) -> Any:
        return error(message, "not_found_error" if status == 404 else "invalid_request_error")

    def handle(self, ex: Exchange) -> Outgoing:
        c11_api_key(ex.headers)
        return super().handle(ex)

    def models(self, ex: Exchange) -> Outgoing:
        """C11's shape. Source: anthropic-sdk-python types/model_info.py."""
        entry = {
            "type": "model",
            "id": self.model,
            "display_name": self.model,
            "created_at": "2025-09-29T00:00:00Z",
        }
        return JsonReply(
            payload={
                "data": [entry],
                "has_more": False,
                "first_id": self.model,
                "last_id": self.model,
            }
        )

    def count_tokens(self, ex: Exchange) -> Outgoing:
        counter = ScriptState(Script(turns=[]))  # a count reads and writes no cache
        uncached, read, write = counter.anthropic_prompt(ex.json)
        return JsonReply(payload={"input_tokens": uncached + read + write})

    def messages(self, ex: Exchange) -> Outgoing:
        body = ex.json
        c9_output_limit(body)
        c10_cache_breakpoints(body)
        c1_thinking_budget(body, ex.headers)
        c2_sampling_with_thinking(body)
        c8_tool_pairing(body)
        c5_thinking_off(body)
        c3_thinking_first(body)
        c4_signatures(body, self.server.secret)
        index, turn, extras = ex.take_turn()
        reply = reply_for(
            turn, index, "toolu_01", self._reasoning(body, ex.headers, turn.reasoning)
        )
        redacted = bool(extras.get("redacted_thinking")) and bool(reply.reasoning)
        uncached, read, write = self.server.state.anthropic_prompt(body)
        output, thinking_tokens = output_counts(reply)
        usage = {
            "input_tokens": uncached,
            "cache_creation_input_tokens": write,
            "cache_read_input_tokens": read,
            "output_tokens": output,
        }
        report = UsageReport(
            ex.path, usage, uncached + read + write, read, output, thinking_tokens, write
        )
        model = str(body.get("model", self.model))
        content = self._content(reply, redacted)
        rid = self.server.new_id("msg_01")
        stop = "tool_use" if reply.calls else "end_turn"
        if not body.get("stream"):
            payload = {
                "id": rid, "type": "message", "role": "assistant", "model": model, "content": content,
                "stop_reason": stop, "stop_sequence": None, "usage": usage,
            }  # fmt: skip
            return JsonReply(payload=payload, turn=index, usage=report)
        return StreamReply(
            frames=_events(rid, model, content, stop, usage), turn=index, usage=report
        )

    def _reasoning(self, body: dict[str, Any], headers: dict[str, str], scripted: str) -> str:
        if not thinking_on(body):
            return ""
        messages = _messages(body)
        starts_turn = not messages or not _is_tool_results(messages[-1])
        if starts_turn:
            return scripted or DEFAULT_REASONING
        interleaved = (
            INTERLEAVED in headers.get("anthropic-beta", "")
            or body["thinking"].get("type") == "adaptive"
        )
        return scripted if interleaved else ""

    def _content(self, reply: Reply, redacted: bool) -> list[dict[str, Any]]:
        secret = self.server.secret
        blocks: list[dict[str, Any]] = []
        if reply.reasoning and redacted:
            blocks.append(
                {"type": "redacted_thinking", "data": seal(secret, "redacted", reply.reasoning)}
            )
        elif reply.reasoning:
            blocks.append(
                {
                    "type": "thinking",
                    "thinking": reply.reasoning,
                    "signature": sign(secret, "thinking", reply.reasoning),
                }
            )
        if reply.text:
            blocks.append({"type": "text", "text": reply.text})
        for call in reply.calls:
            try:
                parsed: Any = json.loads(call.arguments)
            except ValueError:
                parsed = {}
            blocks.append({"type": "tool_use", "id": call.id, "name": call.name, "input": parsed})
        return blocks


def _events(
    rid: str, model: str, content: list[dict[str, Any]], stop: str, usage: dict[str, Any]
) -> list[bytes]:
    """C6: message_start, ping, each block (thinking: thinking_delta then signature_delta;
    text: text_delta; tool_use: input_json_delta), message_delta, message_stop.
    Source: anthropic-sdk-python types/thinking_delta.py, signature_delta.py."""
    frames: list[bytes] = []

    def emit(kind: str, **data: Any) -> None:
        frames.append(sse({"type": kind, **data}, kind))

    message: dict[str, Any] = {
        "id": rid, "type": "message", "role": "assistant", "model": model, "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": {**usage, "output_tokens": 1},
    }  # fmt: skip
    emit("message_start", message=message)
    emit("ping")
    for index, block in enumerate(content):
        kind = block["type"]
        if kind == "thinking":
            emit(
                "content_block_start",
                index=index,
                content_block={"type": "thinking", "thinking": "", "signature": ""},
            )
            for piece in text_pieces(block["thinking"]):
                emit(
                    "content_block_delta",
                    index=index,
                    delta={"type": "thinking_delta", "thinking": piece},
                )
            emit(
                "content_block_delta",
                index=index,
                delta={"type": "signature_delta", "signature": block["signature"]},
            )
        elif kind == "redacted_thinking":
            emit("content_block_start", index=index, content_block=block)
        elif kind == "text":
            emit("content_block_start", index=index, content_block={"type": "text", "text": ""})
            for piece in text_pieces(block["text"]):
                emit(
                    "content_block_delta", index=index, delta={"type": "text_delta", "text": piece}
                )
        else:
            emit("content_block_start", index=index, content_block={**block, "input": {}})
            for piece in fragments(json.dumps(block["input"])):
                emit(
                    "content_block_delta",
                    index=index,
                    delta={"type": "input_json_delta", "partial_json": piece},
                )
        emit("content_block_stop", index=index)
    emit(
        "message_delta",
        delta={"stop_reason": stop, "stop_sequence": None},
        usage={"output_tokens": usage["output_tokens"]},
    )
    emit("message_stop")
    return frames
