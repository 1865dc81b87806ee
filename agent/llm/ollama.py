"""Ollama's native chat API (`POST /api/chat`), which takes the context to serve.

Ollama's OpenAI endpoint takes no `num_ctx`, and a default Ollama serves 4k (or by VRAM)
and cuts a longer prompt silently, answering 200 (H1, H2). Here every request asks for the
window kiln keeps its prompts within (`options.num_ctx`: the profile's `context_window`,
which the settings' resolution sets for a model Ollama serves), so Ollama serves that
much, and `truncate: false` asks a newer Ollama to refuse an overrun rather than cut it.

The stream is NDJSON: `message.content`, `message.thinking` and `message.tool_calls`
(whole, their arguments objects, an `id` only from newer servers), then a line with
`done: true`, `done_reason` and the counts `prompt_eval_count` and `eval_count`.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import AsyncIterator, Mapping
from typing import Any

from agent.events import Usage
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
from agent.llm.openai_compat import to_openai_tools
from agent.llm.recovery import check_native_call
from agent.llm.recovery_stream import client_stream
from agent.llm.reply_caps import ReplyCaps, ReplyWatch, utf8_size
from agent.llm.retry import Retryable
from agent.llm.window import server_root
from agent.llm.wire_common import HttpModelClient, post_stream, read_to_end

_FINISH = {"stop": "stop", "length": "length"}


def to_ollama_messages(messages: list[Message]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for m in messages:
        if m.role == "tool":
            out.append(
                {
                    "role": "tool",
                    "content": m.content,
                    "tool_name": m.name or "",
                    "tool_call_id": m.tool_call_id or "",
                }
            )
        elif m.role == "assistant" and m.tool_calls:
            calls = [
                {"id": c.id, "function": {"name": c.name, "arguments": c.arguments}}
                for c in m.tool_calls
            ]
            out.append({"role": "assistant", "content": m.content, "tool_calls": calls})
        else:
            out.append({"role": m.role, "content": m.content})
    return out


class LineAssembler:
    """Folds `/api/chat` lines into text, reasoning, tool calls and the final counts."""

    def __init__(self) -> None:
        self.text: list[str] = []
        self.reasoning: list[str] = []
        self.calls: list[tuple[str, str, str]] = []  # (id, name, arguments as JSON)
        self.done: dict[str, Any] | None = None
        self.size = 0

    def add(self, line: dict[str, Any]) -> list[ModelEvent]:
        if line.get("error"):
            raise Retryable("server", f"the server reported: {str(line['error'])[:200]}")
        message = line.get("message") or {}
        out: list[ModelEvent] = []
        if message.get("thinking"):
            self.size += utf8_size(message["thinking"])
            self.reasoning.append(message["thinking"])
            out.append(ReasoningChunk(message["thinking"]))
        if message.get("content"):
            self.size += utf8_size(message["content"])
            self.text.append(message["content"])
            out.append(TextChunk(message["content"]))
        for call in message.get("tool_calls") or []:
            function = call.get("function") or {}
            arguments = function.get("arguments")
            text = arguments if isinstance(arguments, str) else json.dumps(arguments or {})
            self.size += utf8_size(text)
            ident = str(call.get("id") or f"call_{secrets.token_hex(6)}")
            self.calls.append((ident, str(function.get("name") or ""), text))
        if line.get("done"):
            self.done = line
        return out

    def message(self, tools: list[ToolSpec]) -> tuple[Message, list[FormatProblem]]:
        calls: list[ToolCall] = []
        problems: list[FormatProblem] = []
        for ident, name, arguments in self.calls:
            checked = check_native_call(name, arguments, tools, ident)
            if isinstance(checked, FormatProblem):
                problems.append(checked)
            else:
                calls.append(checked)
        message = Message(
            role="assistant",
            content="".join(self.text),
            tool_calls=tuple(calls),
            reasoning="".join(self.reasoning),
        )
        return message, problems

    def usage(self) -> Usage:
        done = self.done or {}
        return Usage(
            uncached_input=int(done.get("prompt_eval_count") or 0),
            output=int(done.get("eval_count") or 0),
        )

    def finish_reason(self) -> str:
        if self.calls:
            return "tool_calls"
        reason = str((self.done or {}).get("done_reason") or "stop")
        return _FINISH.get(reason, reason)


class OllamaClient(HttpModelClient):
    """ModelClient for Ollama's native chat API, asking for the window kiln uses."""

    def __init__(
        self,
        profile: ModelProfile,
        *,
        env: Mapping[str, str] | None = None,
        backoff_base_s: float = 1.0,
        caps: ReplyCaps | None = None,
    ) -> None:
        super().__init__(
            profile, server_root(profile.base_url), env=env, backoff_base_s=backoff_base_s,
            caps=caps,
        )  # fmt: skip

    def stream(
        self,
        messages: list[Message],
        tools: list[ToolSpec],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> AsyncIterator[ModelEvent]:
        return client_stream(
            lambda: self._attempt(messages, tools, max_tokens, temperature),
            self.profile,
            tools,
            base_url=self.base_url,
            backoff_base_s=self._backoff_base_s,
        )

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self._key}"} if self._key else {}

    def body(
        self,
        messages: list[Message],
        tools: list[ToolSpec],
        max_tokens: int | None,
        temperature: float | None,
    ) -> dict[str, Any]:
        options: dict[str, Any] = {
            "num_ctx": self.profile.context_window,
            "num_predict": max_tokens or self.profile.max_output_tokens,
        }
        if temperature is None and self.profile.temperature >= 0:
            temperature = self.profile.temperature
        if temperature is not None:
            options["temperature"] = temperature
        if temperature:  # a sample needs a seed of its own, as on the OpenAI endpoint
            options["seed"] = secrets.randbelow(2**31)
        body: dict[str, Any] = {
            "model": self.profile.model,
            "messages": to_ollama_messages(messages),
            "stream": True,
            "options": options,
            "truncate": False,
        }
        if tools:
            body["tools"] = to_openai_tools(tools)  # Ollama takes the same shape
        return body

    async def _attempt(
        self,
        messages: list[Message],
        tools: list[ToolSpec],
        max_tokens: int | None,
        temperature: float | None,
    ) -> AsyncIterator[ModelEvent]:
        body = self.body(messages, tools, max_tokens, temperature)
        started = time.monotonic()
        ttft: float | None = None
        parts = LineAssembler()
        watch = ReplyWatch(self.caps)
        async with post_stream(
            self._http,
            f"{self.base_url}/api/chat",
            body,
            self._headers(),
            base_url=self.base_url,
            key_hint=self._key_hint,
        ) as response:
            lines = response.aiter_lines()
            async for line in lines:
                watch.check(parts.size)
                if not line.strip():
                    continue
                try:
                    data = json.loads(line)
                except ValueError:
                    raise Retryable("cut", "the server sent malformed JSON in the stream") from None
                for event in parts.add(data if isinstance(data, dict) else {}):
                    if ttft is None:
                        ttft = time.monotonic() - started
                    yield event
                watch.check(parts.size)
                if parts.done is not None:
                    await read_to_end(lines)
                    break
        if parts.done is None:
            raise Retryable("cut", "the stream ended before the reply was complete")
        message, problems = parts.message(tools)
        yield Completion(
            message=message,
            usage=parts.usage(),
            finish_reason=parts.finish_reason(),
            ttft_s=ttft,
            duration_s=time.monotonic() - started,
            format_problems=tuple(problems),
        )
