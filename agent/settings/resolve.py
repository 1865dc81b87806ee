"""Which model profile a session uses.

In order: `[models.main]` (flags, KILN_* environment, config files; settings already
merged those), then a model server already running on 127.0.0.1 (llama.cpp, Ollama, vLLM,
LM Studio), then the installed embedded local model (`kiln local`). With none of them,
one sentence says exactly what to set.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses

import httpx

from agent.errors import ConfigError, KilnError, ModelError
from agent.llm.base import ModelClient, ModelProfile
from agent.settings import paths
from agent.settings.config import MODEL_DATA, Settings

# Servers found running are preferred in this order.
PREFERENCE = ("llama.cpp", "Ollama", "vLLM", "LM Studio")
PROBE_TIMEOUT_S = 0.5
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "0.0.0.0")
OLLAMA_PORT = 11434
# The window kiln asks Ollama to serve when the person sets none: what a coding agent's
# prompts need, within what a 7B model's cache takes on a small GPU (Ollama's docs advise
# 64k and more for coding tools; a model trained for less gets its own).
OLLAMA_WINDOW = 32768

NOTHING_CONFIGURED = (
    "No model is configured and none runs on 127.0.0.1: pass --base-url and --model "
    "(or set KILN_BASE_URL and KILN_MODEL, or [models.main] in .kiln.toml), "
    "or run `kiln local install` for the embedded local model."
)


class NoModelConfigured(ConfigError):
    """Nothing is configured, no server runs here and the local model is not installed."""

    def __init__(self) -> None:
        super().__init__(NOTHING_CONFIGURED)


async def resolve_profile(settings: Settings, name: str = "main") -> ModelProfile:
    configured = settings.models.get(name)
    if configured is not None and configured.base_url:
        embedded = _embedded_at(configured.base_url)
        if embedded is not None:
            return embedded
        return await _ollama_native(await _with_model(configured, name), settings, name)
    if configured is not None and configured.model:
        raise ConfigError(
            f"models.{name}.model is set to {configured.model!r} but no base_url says where "
            "it is served; pass --base-url or set KILN_BASE_URL."
        )
    found = await _running_local_server()
    if found is not None:
        return await _ollama_native(found, settings, name)
    try:
        from agent.local import default_profile
    except ImportError:
        default_profile = None  # type: ignore[assignment]
    if default_profile is not None:
        try:
            local = await asyncio.to_thread(default_profile)
        except KilnError:
            raise
        except Exception as exc:  # the local model is optional; its failure must say so
            raise ConfigError(
                f"The embedded local model could not start ({exc}); run `kiln local status`."
            ) from None
        if local is not None:
            return local
    raise NoModelConfigured()


def _embedded_at(base_url: str) -> ModelProfile | None:
    """kiln's own embedded server named by its URL gets the embedded model's profile, as
    with nothing configured (else a 1.5B model would get the prompts of a big one)."""
    if not paths.local_server_record().exists():  # none runs: its package is not imported
        return None
    try:
        from agent.local import embedded_profile_at
    except ImportError:
        return None
    return embedded_profile_at(base_url)


async def _with_model(profile: ModelProfile, name: str) -> ModelProfile:
    """A configured server without a model name: take the one it serves, when only one."""
    if profile.model:
        return profile
    from agent.llm.discovery import list_models

    models = await list_models(profile.base_url, PROBE_TIMEOUT_S)
    if models:
        return dataclasses.replace(profile, model=models[0])
    raise ConfigError(
        f"models.{name} has base_url {profile.base_url} but no model name; "
        "pass --model or set KILN_MODEL."
    )


async def _ollama_native(profile: ModelProfile, settings: Settings, name: str) -> ModelProfile:
    """A model Ollama serves goes through Ollama's native chat API, which takes the window
    to serve (`num_ctx`): on its OpenAI endpoint a default Ollama serves 4k and cuts a
    longer prompt silently (H1, H2). The window is the person's `context_window`, else the
    model's own up to OLLAMA_WINDOW. A provider the person named stays as named."""
    if profile.provider != "openai" or f"models.{name}.provider" in settings.sources:
        return profile
    url = httpx.URL(profile.base_url)
    if url.host not in LOCAL_HOSTS and url.port != OLLAMA_PORT:
        return profile  # a hosted API is not asked Ollama's questions
    from agent.llm.window import ollama_trained

    trained = await ollama_trained(profile.base_url, profile.model)
    if trained is None:
        return profile
    window = profile.context_window
    if settings.sources.get(f"models.{name}.context_window", MODEL_DATA) == MODEL_DATA:
        window = min(trained, OLLAMA_WINDOW) if trained else OLLAMA_WINDOW
    return dataclasses.replace(profile, provider="ollama", context_window=window)


async def _running_local_server() -> ModelProfile | None:
    from agent.llm.discovery import probe_local_servers

    found = [s for s in await probe_local_servers(timeout_s=PROBE_TIMEOUT_S) if s.models]
    found.sort(key=lambda s: PREFERENCE.index(s.server) if s.server in PREFERENCE else 99)
    if not found:
        return None
    return ModelProfile(provider="openai", base_url=found[0].base_url, model=found[0].models[0])


async def open_client(profile: ModelProfile) -> ModelClient:
    """A client for `profile`, once a local server there is known to listen."""
    from agent.llm.factory import create_client

    await check_reachable(profile)
    return create_client(profile)


async def check_reachable(profile: ModelProfile) -> None:
    """Fail at once, in one sentence, when a local server is not running at all.

    Only for servers on this machine: a refused connection there will not heal during the
    client's retries, while a hosted API gets the benefit of the doubt. Whether anything
    listens is all that is asked, so a TCP connect does (no HTTP client, no TLS setup).
    """
    url = httpx.URL(profile.base_url)
    if url.host not in ("127.0.0.1", "localhost", "::1", "0.0.0.0"):
        return
    port = url.port or (443 if url.scheme == "https" else 80)
    try:
        _reader, writer = await asyncio.wait_for(asyncio.open_connection(url.host, port), 2.0)
    except (OSError, TimeoutError):
        raise ModelError(
            f"Nothing answers at {profile.base_url}; start the model server there "
            "or point --base-url at one that runs (docs/models/local-servers.md)."
        ) from None
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
