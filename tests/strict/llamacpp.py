"""llama.cpp's server: `/props` declares n_ctx, `/tokenize` counts `{content}`, a prompt
over n_ctx is refused (L1). Options: `context` (n_ctx, default 8192).

Ids L1-L3 are this module's own (the rules file has no llama.cpp rows)."""

from __future__ import annotations

from typing import Any

from tests.strict.base import Exchange, JsonReply, Outgoing, Refused, tokenize
from tests.strict.chat_server import ChatProvider


class LlamaCppServer(ChatProvider):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.context = int(self.options.get("context", 8192))
        self.reply_paths = ("/v1/chat/completions", "/chat/completions")
        self.routes[("POST", "/chat/completions")] = self.chat
        self.routes[("GET", "/props")] = self.props
        self.routes[("POST", "/tokenize")] = self.tokenize
        self.routes[("GET", "/health")] = lambda ex: JsonReply(payload={"status": "ok"})

    def error_body(self, status: int, message: str) -> Any:
        return {"error": {"code": status, "message": message, "type": "invalid_request_error"}}

    def model_entry(self) -> dict[str, Any]:
        return {
            "id": self.model,
            "object": "model",
            "owned_by": "llamacpp",
            "meta": {"n_ctx_train": self.context},
        }

    def props(self, ex: Exchange) -> Outgoing:
        """L2: n_ctx under default_generation_settings. Source: llama.cpp tools/server
        README (/props); kiln's window.py reads it there."""
        settings = {"n_ctx": self.context, "params": {"n_predict": -1}}
        return JsonReply(payload={"default_generation_settings": settings, "total_slots": 1})

    def tokenize(self, ex: Exchange) -> Outgoing:
        """L3: `{content}` is counted; a body without it gets no tokens (no error).
        not confirmed: from memory of llama.cpp's handle_tokenize (`body.count("content")`)."""
        content = ex.json.get("content")
        tokens = tokenize(content) if isinstance(content, str) else []
        return JsonReply(payload={"tokens": list(range(len(tokens)))})

    def prompt_checks(self, ex: Exchange, tokens: list[str]) -> list[str]:
        """L1: a prompt over n_ctx is refused with both numbers. Source: llama.cpp's server as
        clients quote it (exceed_context_size_error with n_prompt_tokens and n_ctx; older
        builds said "the request exceeds the available context size, try increasing it")."""
        if len(tokens) > self.context:
            message = f"request ({len(tokens)} tokens) exceeds the available context size ({self.context} tokens)"
            error = {
                "code": 400,
                "message": message,
                "type": "exceed_context_size_error",
                "n_prompt_tokens": len(tokens),
                "n_ctx": self.context,
            }
            raise Refused("L1", 400, {"error": error})
        return tokens
