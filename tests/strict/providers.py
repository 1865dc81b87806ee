"""The provider a profile name stands for, and what every provider has in common."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tests.strict.base import Exchange, Outgoing, Refused

if TYPE_CHECKING:
    from tests.strict.server import StrictServer

Route = Callable[[Exchange], Outgoing]

# profile -> (module, class, default model)
PROFILES: dict[str, tuple[str, str, str]] = {
    "openai": ("tests.strict.openai_chat", "OpenAIServer", "gpt-5"),
    "openai-gpt5": ("tests.strict.openai_chat", "OpenAIServer", "gpt-5"),
    "openai-responses": ("tests.strict.openai_chat", "OpenAIServer", "gpt-5-codex"),
    "anthropic": ("tests.strict.anthropic", "AnthropicServer", "claude-sonnet-4-5-20250929"),
    "gemini": ("tests.strict.gemini", "GeminiServer", "gemini-3-pro-preview"),
    "deepseek": ("tests.strict.deepseek", "DeepSeekServer", "deepseek-reasoner"),
    "kimi": ("tests.strict.kimi", "KimiServer", "kimi-k2-thinking"),
    "vllm-no-auto-tools": ("tests.strict.vllm", "VLLMServer", "Qwen/Qwen2.5-Coder-7B-Instruct"),
    "ollama": ("tests.strict.ollama", "OllamaServer", "qwen2.5-coder:7b"),
    "llamacpp": ("tests.strict.llamacpp", "LlamaCppServer", "qwen2.5-coder-7b-instruct"),
}


class Provider:
    """Routes requests to endpoint functions; its error bodies are the provider's own."""

    name = "provider"
    base_path = "/v1"
    reply_paths: tuple[str, ...] = ()

    def __init__(self, server: StrictServer, model: str, options: dict[str, Any]) -> None:
        self.server = server
        self.model = model
        self.options = options
        self.routes: dict[tuple[str, str], Route] = {}

    def handle(self, ex: Exchange) -> Outgoing:
        route = self.routes.get((ex.method, ex.path))
        if route is None:
            raise Refused("route", 404, self.error_body(404, f"no route {ex.method} {ex.path}"))
        if ex.method == "POST" and not isinstance(ex.body, dict):
            raise Refused("json", 400, self.error_body(400, "the body is not a JSON object"))
        return route(ex)

    def is_reply_path(self, path: str) -> bool:
        return path in self.reply_paths

    def error_body(self, status: int, message: str) -> Any:
        """The provider's error shape for what no documented rule covers."""
        return {
            "error": {
                "message": message,
                "type": "invalid_request_error",
                "param": None,
                "code": None,
            }
        }

    def exhausted(self, ex: Exchange, served: int) -> Refused:
        message = f"the script has no turns left ({served} served)"
        return Refused("script-exhausted", 400, self.error_body(400, message))


def make_provider(
    profile: str, server: StrictServer, model: str | None, options: dict[str, Any]
) -> Provider:
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; use one of {', '.join(PROFILES)}")
    module, cls, default_model = PROFILES[profile]
    provider_cls = getattr(importlib.import_module(module), cls)
    provider: Provider = provider_cls(server, model or default_model, options)
    provider.name = profile
    return provider
