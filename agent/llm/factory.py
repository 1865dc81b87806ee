"""Build a ModelClient from a model profile, by provider name."""

from __future__ import annotations

from collections.abc import Mapping

from agent.errors import ConfigError
from agent.llm.base import ModelClient, ModelProfile

PROVIDERS = ("openai", "anthropic", "ollama")
TOOL_PROTOCOLS = ("auto", "native", "text")


def create_client(profile: ModelProfile, *, env: Mapping[str, str] | None = None) -> ModelClient:
    """`openai` covers every OpenAI-compatible server; `tool_protocol = "text"` wraps either."""
    provider = profile.provider.lower()
    if provider not in PROVIDERS:
        raise ConfigError(
            f'Unknown model provider {profile.provider!r}: use "openai" '
            '(any OpenAI-compatible server), "anthropic" or "ollama".'
        )
    if profile.tool_protocol not in TOOL_PROTOCOLS:
        raise ConfigError(
            f"Unknown tool_protocol {profile.tool_protocol!r}: use one of "
            f"{', '.join(TOOL_PROTOCOLS)}."
        )
    client: ModelClient
    if provider == "anthropic":
        from agent.llm.anthropic import AnthropicClient

        client = AnthropicClient(profile, env=env)
    elif provider == "ollama":
        from agent.llm.ollama import OllamaClient

        # Its native chat API, which takes the window to serve (`num_ctx`, H2).
        client = OllamaClient(profile, env=env)
    else:
        if not profile.base_url:
            raise ConfigError(
                "No model server is configured: pass --base-url (or set KILN_BASE_URL), "
                "or run `kiln local install` for the local model."
            )
        if speaks_responses(profile):
            from agent.llm.responses import ResponsesClient

            client = ResponsesClient(profile, env=env)
        else:
            from agent.llm.openai_compat import OpenAICompatClient

            client = OpenAICompatClient(profile, env=env)
        from agent.llm.adapt import AdaptingClient

        # What the server refuses and names (a parameter, a value, another API, native
        # tool calls) is adapted to once, said once, kept for the session (`adapt.py`).
        client = AdaptingClient(client, env=env)
    if profile.tool_protocol == "text":
        from agent.llm.text_protocol import TextProtocolClient

        # Small models: one JSON call per reply, its shape enforced by the server.
        client = TextProtocolClient(client, "json" if profile.small_model else "fenced")
    if profile.server_log:
        from pathlib import Path

        from agent.llm.usage_log import LoggedUsageClient

        client = LoggedUsageClient(client, Path(profile.server_log))
    return client


def speaks_responses(profile: ModelProfile) -> bool:
    """The Responses API: asked for by `wire_api`, or with "auto" what kiln knows the model
    needs (`models.toml`: gpt-5-codex and its kin speak nothing else)."""
    if profile.wire_api == "responses":
        return True
    if profile.wire_api != "auto":
        return False
    from agent.llm.facts import facts_for

    return facts_for(profile.model).api == "responses"
