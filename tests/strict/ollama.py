"""Ollama with a served context smaller than the model's trained one (4096 of 32768 by
default): the OpenAI endpoint `/v1/chat/completions` cuts a longer prompt silently and
answers 200 (H1), recorded in `server.truncations` so a test can assert none happened;
`GET /api/ps` says what is served, `POST /api/show` the trained maximum, and the native
`POST /api/chat` takes `options.num_ctx` and then serves that much (H2). Also
`GET /api/tags` and `GET /v1/models`.

Options: `context` (the served default, OLLAMA_CONTEXT_LENGTH; 4096), `trained` (32768),
`num_ctx_parameter` (a Modelfile's `PARAMETER num_ctx`, shown by /api/show; none),
`loaded` (whether /api/ps lists the model before its first request; True)."""

from __future__ import annotations

import json
from typing import Any

from agent.llm.scripted.wire import text_pieces
from tests.strict.base import (
    Exchange,
    JsonReply,
    Outgoing,
    Refused,
    StreamReply,
    UsageReport,
    reply_for,
)
from tests.strict.chat import ChatStyle, output_counts, prompt_tokens
from tests.strict.chat_server import ChatProvider

KEEP = 4  # num_keep: what the cut keeps from the start of the prompt
CREATED = "2025-06-01T00:00:00Z"


class OllamaServer(ChatProvider):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.context = int(self.options.get("context", 4096))
        self.trained = int(self.options.get("trained", 32768))
        self.loaded: int | None = self.context if self.options.get("loaded", True) else None
        self.routes.update(
            {
                ("POST", "/api/chat"): self.native_chat,
                ("GET", "/api/ps"): self.ps,
                ("POST", "/api/show"): self.show,
                ("GET", "/api/tags"): self.tags,
                ("GET", "/api/version"): lambda ex: JsonReply(payload={"version": "0.12.0"}),
            }
        )
        self.reply_paths = ("/v1/chat/completions", "/api/chat")

    def style(self, body: dict[str, Any]) -> ChatStyle:
        return ChatStyle(reasoning_field="reasoning")  # not confirmed: the field's name on /v1

    def usage(self, prompt: int, cached: int, output: int, reasoning: int) -> dict[str, Any]:
        return {
            "prompt_tokens": prompt,
            "completion_tokens": output,
            "total_tokens": prompt + output,
        }

    def cached(self, tokens: list[str]) -> int:
        self.server.cached_prefix(tokens)
        return 0  # Ollama reports no cached tokens

    def _known(self, ex: Exchange, name: Any) -> None:
        """not confirmed: the text for a model that was never pulled."""
        if name not in (self.model, self.model.removesuffix(":latest")):
            raise Refused("model", 404, {"error": f"model '{name}' not found"})

    # --- H1: the served window, and the silent cut ---------------------------------------

    def _serve(self, path: str, tokens: list[str], num_ctx: Any) -> list[str]:
        """H1: a prompt over the served context is cut to it, keeping KEEP tokens from the
        start; only the server's log says so. Source: ollama docs/context-length.mdx;
        ollama#9545, #9221, #5902 (truncation on /v1); ipex-llm#13106 (the log line).
        not confirmed: that a request with another num_ctx (or none, after one with) loads
        the model again at that size, as Ollama does when options differ."""
        served = int(num_ctx) if isinstance(num_ctx, int) and num_ctx > 0 else self.context
        self.loaded = served
        if len(tokens) <= served:
            return tokens
        cut = {"path": path, "limit": served, "prompt": len(tokens), "keep": KEEP, "new": served}
        with self.server.lock:
            self.server.truncations.append(cut)
        return tokens[:KEEP] + tokens[len(tokens) - (served - KEEP) :]

    def prompt_checks(self, ex: Exchange, tokens: list[str]) -> list[str]:
        self._known(ex, ex.json.get("model"))
        return self._serve(ex.path, tokens, None)  # H2: the OpenAI endpoint takes no num_ctx

    # --- H2: what the server says of its window --------------------------------------------

    def _details(self) -> dict[str, Any]:
        return {
            "parent_model": "",
            "format": "gguf",
            "family": "qwen2",
            "families": ["qwen2"],
            "parameter_size": "7.6B",
            "quantization_level": "Q4_K_M",
        }

    def ps(self, ex: Exchange) -> Outgoing:
        """H2: the served context of each loaded model. Source: ollama docs/context-length.mdx
        (`ollama ps` CONTEXT column). not confirmed: the field name `context_length`."""
        if self.loaded is None:
            return JsonReply(payload={"models": []})
        entry = {
            "name": self.model,
            "model": self.model,
            "size": 6_000_000_000,
            "digest": "0" * 64,
            "details": self._details(),
            "expires_at": "2099-01-01T00:00:00Z",
            "size_vram": 6_000_000_000,
            "context_length": self.loaded,
        }
        return JsonReply(payload={"models": [entry]})

    def show(self, ex: Exchange) -> Outgoing:
        """H2: `model_info.<arch>.context_length` is the trained maximum; `parameters` holds
        num_ctx only when a Modelfile sets it. Source: ollama docs/context-length.mdx, #4447."""
        self._known(ex, ex.json.get("model", ex.json.get("name")))
        parameter = self.options.get("num_ctx_parameter")
        payload = {
            "modelfile": f"FROM {self.model}\n",
            "parameters": f"num_ctx                        {parameter}" if parameter else "",
            "template": "{{ .Prompt }}",
            "details": self._details(),
            "model_info": {"general.architecture": "qwen2", "qwen2.context_length": self.trained},
            "capabilities": ["completion", "tools"],
            "modified_at": CREATED,
        }
        return JsonReply(payload=payload)

    def tags(self, ex: Exchange) -> Outgoing:
        entry = {
            "name": self.model,
            "model": self.model,
            "modified_at": CREATED,
            "size": 4_700_000_000,
            "digest": "0" * 64,
            "details": self._details(),
        }
        return JsonReply(payload={"models": [entry]})

    def model_entry(self) -> dict[str, Any]:
        return {"id": self.model, "object": "model", "created": 0, "owned_by": "library"}

    # --- the native chat ------------------------------------------------------------------

    def native_chat(self, ex: Exchange) -> Outgoing:
        """`/api/chat`: NDJSON lines, streamed unless `stream: false`; tool calls whole with
        arguments as objects; prompt_eval_count / eval_count in the last line."""
        body = ex.json
        self._known(ex, body.get("model"))
        tokens = self._serve(
            ex.path, prompt_tokens(body), (body.get("options") or {}).get("num_ctx")
        )
        index, turn, _ = ex.take_turn()
        reply = reply_for(turn, index, "call_", turn.reasoning if body.get("think") else "")
        output, reasoning = output_counts(reply)
        counts = {"prompt_eval_count": len(tokens), "eval_count": output}
        self.server.cached_prefix(tokens)
        report = UsageReport(ex.path, counts, len(tokens), 0, output, reasoning)
        head = {"model": self.model, "created_at": CREATED}
        calls = [
            {"function": {"name": c.name, "arguments": json.loads(c.arguments)}}
            for c in reply.calls
        ]
        done = {
            **head,
            "done": True,
            "done_reason": "stop",
            "total_duration": 1_000_000,
            "load_duration": 1000,
            "prompt_eval_duration": 1000,
            "eval_duration": 1000,
            **counts,
        }
        if body.get("stream", True) is False:
            message: dict[str, Any] = {"role": "assistant", "content": reply.text}
            if reply.reasoning:
                message["thinking"] = reply.reasoning
            if calls:
                message["tool_calls"] = calls
            return JsonReply(payload={**done, "message": message}, turn=index, usage=report)
        lines = [
            {**head, "message": {"role": "assistant", "content": "", "thinking": p}, "done": False}
            for p in text_pieces(reply.reasoning)
        ]
        lines += [
            {**head, "message": {"role": "assistant", "content": p}, "done": False}
            for p in text_pieces(reply.text)
        ]
        if calls:
            lines.append(
                {
                    **head,
                    "message": {"role": "assistant", "content": "", "tool_calls": calls},
                    "done": False,
                }
            )
        lines.append({**done, "message": {"role": "assistant", "content": ""}})
        frames = [(json.dumps(line) + "\n").encode() for line in lines]
        return StreamReply(
            frames=frames, content_type="application/x-ndjson", turn=index, usage=report
        )
