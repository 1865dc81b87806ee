"""The OpenAI Responses API (`POST {base}/responses`) over httpx with SSE streaming.

For the models that speak only this API (gpt-5-codex and its kin answer 404 on chat
completions, B1) and those whose tools need it with an effort (gpt-5.2 on, A5/A6), and for
any OpenAI model with `wire_api = "responses"`. What a model takes (its effort words,
whether a temperature may be sent) comes from `models.toml`, as for the chat client.

Stateless: `store: false`, and the reasoning comes back encrypted (`include:
["reasoning.encrypted_content"]`), kept with the reply (`Message.replay`) and sent back with
it on the next request, so nothing depends on OpenAI keeping anything (B6). Retries, reply
caps and the recovery of calls written as text are the chat client's.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import AsyncIterator, Mapping
from typing import Any

import httpx

from agent.errors import ModelError
from agent.events import Usage
from agent.llm.base import Completion, Message, ModelEvent, ModelProfile, ToolSpec
from agent.llm.choices import WireChoices
from agent.llm.facts import effort_for, facts_for, on_client
from agent.llm.recovery_stream import client_stream
from agent.llm.reply_caps import ReplyCaps, ReplyWatch
from agent.llm.responses_wire import (
    API,
    ResponseAssembler,
    to_responses_input,
    to_responses_tools,
)
from agent.llm.retry import Retryable, status_error
from agent.llm.wire_common import (
    HttpModelClient,
    post_stream,
    read_to_end,
    sse_events,
    with_default_path,
)
from agent.present import estimate_tokens

# The codes of a failed response that may pass when asked again; any other is the request's.
_PASSING = {"server_error": "server", "rate_limit_exceeded": "rate_limit", "": "server"}


class ResponsesClient(HttpModelClient):
    """ModelClient for the OpenAI Responses API (and servers that speak it)."""

    def __init__(
        self,
        profile: ModelProfile,
        *,
        env: Mapping[str, str] | None = None,
        backoff_base_s: float = 1.0,
        caps: ReplyCaps | None = None,
        cache_key: str = "",
    ) -> None:
        super().__init__(
            profile, with_default_path(profile.base_url, "/v1"), env=env,
            backoff_base_s=backoff_base_s, caps=caps,
        )  # fmt: skip
        self.facts = facts = on_client(facts_for(profile.model), "openai")
        # A reasoning model: its effort and summaries asked for, its reasoning kept (B6).
        self.reasons = facts.effort_as in ("reasoning_effort", "reasoning.effort")
        # What a server may refuse, changed once by `adapt.py` when it does.
        self.choices = WireChoices(
            output_param="max_output_tokens",
            temperature="none" if facts.temperature == "default" else facts.temperature,
            effort=effort_for(facts, profile.effort) if self.reasons else "",
        )
        # `prompt_cache_key`: OpenAI caches a prompt's prefix by itself; requests with the
        # same key are routed to the same cache, so a session's requests, which only append
        # to one prefix, keep hitting it. The session's id when the caller knows it.
        self.cache_key = cache_key or f"kiln-{uuid.uuid4().hex}"

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

    def request_body(
        self,
        messages: list[Message],
        tools: list[ToolSpec],
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> dict[str, Any]:
        """One request's body (B2): never chat completions' names (B3), a reasoning model's
        effort and summaries, the temperature only where the model takes one."""
        if not self.profile.model:
            raise ModelError("No model is configured for the Responses API: pass --model.")
        instructions, items = to_responses_input(messages)
        body: dict[str, Any] = {
            "model": self.profile.model,
            "input": items,
            "stream": True,
            "store": False,
            "max_output_tokens": max_tokens or self.profile.max_output_tokens,
            "prompt_cache_key": self.cache_key,
        }
        if instructions:
            body["instructions"] = instructions
        if tools:
            body["tools"] = to_responses_tools(tools)
        if self.reasons:
            body["reasoning"] = {"summary": "auto"}
            if self.choices.effort:
                body["reasoning"]["effort"] = self.choices.effort
            body["include"] = ["reasoning.encrypted_content"]
        if self.choices.temperature == "none":
            temperature = None  # only the model's default is taken (A2, B10)
        elif self.choices.temperature != "any":
            temperature = float(self.choices.temperature)
        elif temperature is None and self.profile.temperature >= 0:
            temperature = self.profile.temperature
        if temperature is not None:
            body["temperature"] = temperature
        return body

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self._key}"} if self._key else {}

    async def _attempt(
        self,
        messages: list[Message],
        tools: list[ToolSpec],
        max_tokens: int | None,
        temperature: float | None,
    ) -> AsyncIterator[ModelEvent]:
        body = self.request_body(messages, tools, max_tokens, temperature)
        started = time.monotonic()
        ttft: float | None = None
        parts = ResponseAssembler()
        watch = ReplyWatch(self.caps)
        async with post_stream(
            self._http,
            f"{self.base_url}/responses",
            body,
            self._headers(),
            base_url=self.base_url,
            key_hint=self._key_hint,
        ) as response:
            events = _events(response, watch)
            async for event in events:
                if event.get("type") in ("error", "response.failed"):
                    raise self._failure(event)
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
            raise Retryable("cut", "the stream ended before the response was complete")
        calls, problems = parts.tool_calls(tools)
        replay = parts.replay()
        message = Message(
            role="assistant",
            content="".join(parts.text),
            tool_calls=tuple(calls),
            reasoning="".join(parts.reasoning),
            replay=replay,
            replay_api=API if replay else "",
        )
        said = "".join(parts.text + parts.reasoning) + json.dumps(parts.calls)
        estimate = Usage(
            uncached_input=estimate_tokens(json.dumps(body)), output=estimate_tokens(said)
        )
        yield Completion(
            message=message,
            usage=parts.token_usage(estimate),
            finish_reason=parts.finish_reason(calls),
            ttft_s=ttft,
            duration_s=time.monotonic() - started,
            format_problems=tuple(problems),
        )

    def _failure(self, event: dict[str, Any]) -> Exception:
        """A failed response as the chat client words it: a mid-stream error that may pass
        is tried again, any other is the request's fault, in one sentence."""
        error = event if event.get("type") == "error" else (event.get("response") or {})
        error = error.get("error", error) if isinstance(error.get("error"), dict) else error
        code, message = str(error.get("code") or ""), str(error.get("message") or "error")
        if code in _PASSING:
            detail = f"the server reported an error mid-stream: {message}"
            return Retryable(_PASSING[code], detail)
        param = error.get("param")
        body = json.dumps({"error": {"message": message, "code": code, "param": param}})
        return status_error(400, body, self.base_url, self._key_hint)


async def _events(response: httpx.Response, watch: ReplyWatch) -> AsyncIterator[dict[str, Any]]:
    """The stream's events by their `type`; a whole JSON response (no stream) as the events
    it would have streamed."""
    if "event-stream" not in response.headers.get("content-type", "event-stream"):
        raw = bytearray()
        async for piece in response.aiter_bytes():  # read within the caps, never whole
            raw += piece
            watch.check(len(raw))
        try:
            whole = json.loads(bytes(raw))
        except ValueError:
            raise Retryable("cut", "the server sent malformed JSON") from None
        if not isinstance(whole, dict):
            raise Retryable("cut", "the server sent no response object")
        for index, item in enumerate(whole.get("output") or []):
            yield {"type": "response.output_item.done", "output_index": index, "item": item}
        status = whole.get("status") or "completed"
        yield {"type": f"response.{status}", "response": whole}
        return
    async for name, data in sse_events(response, watch):
        if data.strip() == "[DONE]":  # B7 has none; a server that copies chat's may send it
            continue
        try:
            event = json.loads(data)
        except ValueError:
            raise Retryable("cut", "the server sent malformed JSON in the stream") from None
        if isinstance(event, dict):
            event.setdefault("type", name)
            yield event
