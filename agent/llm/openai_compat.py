"""OpenAI-compatible chat completions over httpx with SSE streaming.

One client for llama.cpp's server, vLLM, Ollama, LM Studio and hosted services (OpenAI,
OpenRouter, DeepSeek, DashScope, Moonshot, ...), chosen purely by base URL. Servers
differ, so the parser tolerates missing usage, missing ids, `data: [DONE]` or its absence,
SSE comments, chunks with empty `choices`, usage only in the last chunk, and a plain JSON
body where a stream was asked for. Unless the profile says `tool_protocol = "native"`,
calls written as text are recovered (`recovery.py`).
"""

from __future__ import annotations

import dataclasses
import json
import secrets
import time
from collections.abc import AsyncIterator, Mapping
from typing import Any

import httpx

from agent.errors import ModelError
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
from agent.llm.choices import WireChoices, chat_choices
from agent.llm.facts import facts_for, on_client
from agent.llm.recovery import check_native_call
from agent.llm.recovery_stream import client_stream
from agent.llm.reply_caps import ReplyCaps, ReplyWatch, utf8_size
from agent.llm.retry import Retryable, classify_transport_error
from agent.llm.wire_common import (
    HttpModelClient,
    post_stream,
    read_to_end,
    sse_events,
    with_default_path,
)
from agent.present import estimate_tokens

# What a server attaches to a reply that it wants back as it came: Gemini's thought
# signature rides in `extra_content`, on the first tool call or a text reply's delta (D1).
CARRIED = ("extra_content",)


def to_openai_messages(
    messages: list[Message], choices: WireChoices | None = None
) -> list[dict[str, Any]]:
    """The conversation in chat-completions shape; `choices` says what goes back with the
    model's own messages (its reasoning, what the server attached to them)."""
    choices = choices or WireChoices()
    out: list[dict[str, Any]] = []
    for m in messages:
        if m.role == "tool":
            out.append({"role": "tool", "tool_call_id": m.tool_call_id or "", "content": m.content})
        elif m.role == "assistant":
            out.append(_assistant_message(m, choices))
        else:
            out.append({"role": m.role, "content": m.content})
    return out


def _assistant_message(m: Message, choices: WireChoices) -> dict[str, Any]:
    # "" rather than null: llama-cpp-python's server rejects a null content (HTTP 500),
    # and every other server takes an empty string too.
    entry: dict[str, Any] = {"role": "assistant", "content": m.content}
    # Every tool-call message carries the field when the server wants reasoning back
    # (DeepSeek E2/E3, Kimi F1 check that it is there), text replies only when they had some.
    if choices.reasoning_back and (m.reasoning or m.tool_calls):
        entry["reasoning_content"] = m.reasoning
    if choices.extras_back and m.replay_api == "chat":
        for item in m.replay:
            entry.update(item)
    if m.tool_calls:
        entry["tool_calls"] = [_tool_call(c, choices) for c in m.tool_calls]
    return entry


def _tool_call(c: ToolCall, choices: WireChoices) -> dict[str, Any]:
    call: dict[str, Any] = {
        "id": c.id,
        "type": "function",
        "function": {"name": c.name, "arguments": json.dumps(c.arguments)},
    }
    if choices.extras_back and c.extra:
        call.update(c.extra)
    return call


def to_openai_tools(tools: list[ToolSpec]) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
        }
        for t in tools
    ]


class ChunkAssembler:
    """Folds streamed chunks into text, reasoning, indexed tool calls and usage."""

    def __init__(self) -> None:
        self.text: list[str] = []
        self.reasoning: list[str] = []
        self.calls: dict[int, dict[str, str]] = {}
        self.call_extras: dict[int, dict[str, Any]] = {}  # CARRIED keys of each call, as sent
        self.extras: dict[str, Any] = {}  # CARRIED keys of the reply's deltas (a text reply's)
        self.usage: dict[str, Any] | None = None
        self.choice_usage: dict[str, Any] | None = None  # Kimi: in the last choice (F3)
        self.timings: dict[str, Any] | None = None
        self.finish_reason: str | None = None
        self.done = False
        self.size = 0  # UTF-8 bytes of text, reasoning and tool arguments so far

    @property
    def finished(self) -> bool:
        return self.done or self.finish_reason is not None

    def add(self, chunk: dict[str, Any]) -> list[ModelEvent]:
        events: list[ModelEvent] = []
        if chunk.get("usage"):
            self.usage = chunk["usage"]
        if isinstance(chunk.get("timings"), dict):  # llama.cpp: cache_n = cached prompt tokens
            self.timings = chunk["timings"]
        for choice in chunk.get("choices") or []:
            if isinstance(choice.get("usage"), dict) and choice["usage"]:
                self.choice_usage = choice["usage"]
            delta = choice.get("delta") or choice.get("message") or {}
            self.extras.update({k: delta[k] for k in CARRIED if delta.get(k)})
            reasoning = delta.get("reasoning_content") or delta.get("reasoning")
            if isinstance(reasoning, str) and reasoning:
                self.size += utf8_size(reasoning)
                self.reasoning.append(reasoning)
                events.append(ReasoningChunk(reasoning))
            content = delta.get("content")
            if isinstance(content, str) and content:
                self.size += utf8_size(content)
                self.text.append(content)
                events.append(TextChunk(content))
            for call in delta.get("tool_calls") or []:
                self._add_call(call)
            if choice.get("finish_reason"):
                self.finish_reason = choice["finish_reason"]
        return events

    def _add_call(self, delta: dict[str, Any]) -> None:
        index = delta.get("index")
        call_id = delta.get("id") or ""
        if not isinstance(index, int):  # some servers omit it: a new id starts a new call
            last = max(self.calls, default=-1)
            same = last >= 0 and (not call_id or self.calls[last]["id"] in ("", call_id))
            index = last if same else last + 1
        slot = self.calls.setdefault(index, {"id": "", "name": "", "arguments": ""})
        carried = {k: delta[k] for k in CARRIED if delta.get(k)}
        if carried:
            self.call_extras.setdefault(index, {}).update(carried)
        function = delta.get("function") or {}
        if call_id and not slot["id"]:
            slot["id"] = call_id
        if function.get("name") and not slot["name"]:
            slot["name"] = function["name"]
        arguments = function.get("arguments")
        if isinstance(arguments, dict):  # a few servers send an object, not a string
            slot["arguments"] = json.dumps(arguments)
            self.size += utf8_size(slot["arguments"])
        elif isinstance(arguments, str):
            slot["arguments"] += arguments
            self.size += utf8_size(arguments)

    def tool_calls(self, tools: list[ToolSpec]) -> tuple[list[ToolCall], list[FormatProblem]]:
        calls: list[ToolCall] = []
        problems: list[FormatProblem] = []
        for index in sorted(self.calls):
            slot = self.calls[index]
            checked = check_native_call(
                slot["name"], slot["arguments"], tools, slot["id"] or f"call_{index}"
            )
            if isinstance(checked, FormatProblem):
                problems.append(checked)
            else:
                extra = self.call_extras.get(index)
                calls.append(dataclasses.replace(checked, extra=extra) if extra else checked)
        return calls, problems

    def message(self, calls: list[ToolCall]) -> Message:
        """The reply as a Message: its reasoning kept (shown, stored, sent back where the
        server wants it), and what the server attached to a text reply kept to send back."""
        replay = ({**self.extras},) if self.extras and not calls else ()
        return Message(
            role="assistant",
            content="".join(self.text),
            tool_calls=tuple(calls),
            reasoning="".join(self.reasoning),
            replay=replay,
            replay_api="chat" if replay else "",
        )

    def token_usage(self, request_text: str) -> Usage:
        u = self.usage or self.choice_usage
        if not u:
            output = "".join(self.text + self.reasoning) + json.dumps(self.calls)
            prompt, cached = (
                estimate_tokens(request_text),
                int((self.timings or {}).get("cache_n", 0)),
            )
            return Usage(
                uncached_input=max(0, prompt - cached),
                cached_input=cached,
                output=estimate_tokens(output),
            )
        prompt = int(u.get("prompt_tokens") or 0)
        details = u.get("prompt_tokens_details") or {}
        cached = (
            details.get("cached_tokens")
            or u.get("prompt_cache_hit_tokens")  # DeepSeek
            or u.get("cached_tokens")  # Moonshot
            or (self.timings or {}).get("cache_n")
            or 0
        )
        cached = min(int(cached), prompt)
        completion = int(u.get("completion_tokens") or 0)
        # Reasoning tokens are inside completion_tokens (A7; DeepSeek reports them alike, E4).
        spent = u.get("completion_tokens_details")
        thought = int((spent.get("reasoning_tokens") if isinstance(spent, dict) else 0) or 0)
        return Usage(
            uncached_input=prompt - cached,
            cached_input=cached,
            output=completion,
            reasoning=min(thought, completion),
        )


class OpenAICompatClient(HttpModelClient):
    """ModelClient for any server speaking OpenAI chat completions.

    What it sends that servers differ on (the output parameter, temperature, effort, what
    goes back) is `choices`, from what kiln knows of the model (`models.toml`), changed by
    `llm/adapt.py` when a server refuses it."""

    takes_shape = True  # `stream(shape=...)`: a response_format for the text protocol

    def __init__(
        self,
        profile: ModelProfile,
        *,
        env: Mapping[str, str] | None = None,
        backoff_base_s: float = 1.0,
        caps: ReplyCaps | None = None,
    ) -> None:
        super().__init__(
            profile, with_default_path(profile.base_url, "/v1"), env=env,
            backoff_base_s=backoff_base_s, caps=caps,
        )  # fmt: skip
        self._model = profile.model
        self.choices = chat_choices(on_client(facts_for(profile.model), "openai"), profile.effort)

    def stream(
        self,
        messages: list[Message],
        tools: list[ToolSpec],
        *,
        max_tokens: int | None = None,
        shape: dict[str, Any] | None = None,
        temperature: float | None = None,
    ) -> AsyncIterator[ModelEvent]:
        """`shape`: a `response_format` the reply must fit (the text protocol's JSON calls)."""
        return client_stream(
            lambda: self._attempt(messages, tools, max_tokens, shape, temperature),
            self.profile,
            tools,
            base_url=self.base_url,
            backoff_base_s=self._backoff_base_s,
        )

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self._key}"} if self._key else {}

    async def _model_name(self) -> str:
        """The configured model, or the first one the server lists (local servers)."""
        if self._model:
            return self._model
        try:
            response = await self._http.get(f"{self.base_url}/models", headers=self._headers())
            self._model = str(response.json()["data"][0]["id"])
        except httpx.TransportError as exc:
            raise classify_transport_error(exc, started_response=False) from None
        except (httpx.HTTPError, ValueError, KeyError, IndexError, TypeError):
            raise ModelError(
                f"No model is configured and {self.base_url}/models names none: pass --model."
            ) from None
        return self._model

    async def _attempt(
        self,
        messages: list[Message],
        tools: list[ToolSpec],
        max_tokens: int | None,
        shape: dict[str, Any] | None = None,
        temperature: float | None = None,
    ) -> AsyncIterator[ModelEvent]:
        choices = self.choices
        body: dict[str, Any] = {
            "model": await self._model_name(),
            "messages": to_openai_messages(messages, choices),
            "stream": True,
            "stream_options": {"include_usage": True},
            choices.output_param: max_tokens or self.profile.max_output_tokens,
        }
        if tools:
            body["tools"] = to_openai_tools(tools)
        if choices.effort:
            body["reasoning_effort"] = choices.effort
        if choices.temperature == "any":
            if temperature is None and self.profile.temperature >= 0:
                temperature = self.profile.temperature
            if temperature is not None:
                body["temperature"] = temperature
            if temperature:
                # A sample needs a seed of its own: without one, llama-cpp-python derives
                # the next seed from the one saved with a cached prompt state, so every
                # sample of a prompt it has cached came back word for word the same.
                body["seed"] = secrets.randbelow(2**31)
        elif choices.temperature != "none":  # the one value the model takes (F2)
            body["temperature"] = float(choices.temperature)
        if shape:
            body["response_format"] = shape
        started = time.monotonic()
        ttft: float | None = None
        parts = ChunkAssembler()
        watch = ReplyWatch(self.caps)
        async with post_stream(
            self._http,
            f"{self.base_url}/chat/completions",
            body,
            self._headers(),
            base_url=self.base_url,
            key_hint=self._key_hint,
        ) as response:
            async for payload in _payloads(response, watch):
                if payload is None:
                    parts.done = True
                    break
                added = parts.add(payload)
                watch.check(parts.size)
                for event in added:
                    if ttft is None:
                        ttft = time.monotonic() - started
                    yield event
        if not parts.finished:
            raise Retryable("cut", "the stream ended before the reply was complete")
        calls, problems = parts.tool_calls(tools)
        yield Completion(
            message=parts.message(calls),
            usage=parts.token_usage(json.dumps(body)),
            finish_reason=parts.finish_reason or "stop",
            ttft_s=ttft,
            duration_s=time.monotonic() - started,
            format_problems=tuple(problems),
        )


async def _payloads(
    response: httpx.Response, watch: ReplyWatch
) -> AsyncIterator[dict[str, Any] | None]:
    """Parsed chunks; None for `[DONE]`. A JSON body (no stream) counts as one chunk."""
    if "event-stream" not in response.headers.get("content-type", "event-stream"):
        body = bytearray()
        async for piece in response.aiter_bytes():  # read within the caps, never whole
            body += piece
            watch.check(len(body))
        try:
            whole = json.loads(bytes(body))
        except ValueError:
            raise Retryable("cut", "the server sent malformed JSON") from None
        yield whole
        yield None
        return
    events = sse_events(response, watch)
    async for _, data in events:
        if data.strip() == "[DONE]":
            await read_to_end(events)
            yield None
            return
        try:
            chunk = json.loads(data)
        except ValueError:
            raise Retryable("cut", "the server sent malformed JSON in the stream") from None
        if isinstance(chunk, dict) and isinstance(chunk.get("error"), dict):
            message = chunk["error"].get("message", "error")
            raise Retryable("server", f"the server reported an error mid-stream: {message}")
        if isinstance(chunk, dict):
            yield chunk
