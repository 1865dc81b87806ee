"""Which model profile a session uses.

In order: `[models.main]` (flags, KILN_* environment, config files; settings already
merged those), then a model server already running on 127.0.0.1 (llama.cpp, Ollama, vLLM,
LM Studio), then the installed embedded local model (`kiln local`). With none of them,
one sentence says exactly what to set.
"""

from __future__ import annotations

import dataclasses

import httpx

from agent.config import Settings
from agent.errors import ConfigError, KilnError
from agent.llm.base import ModelProfile

# (name, base URL) of local servers, in the order they are tried.
LOCAL_SERVERS = (
    ("llama.cpp", "http://127.0.0.1:8080/v1"),
    ("Ollama", "http://127.0.0.1:11434/v1"),
    ("vLLM", "http://127.0.0.1:8000/v1"),
    ("LM Studio", "http://127.0.0.1:1234/v1"),
)
PROBE_TIMEOUT_S = 0.5

NOTHING_CONFIGURED = (
    "No model is configured and none runs on 127.0.0.1: pass --base-url and --model "
    "(or set KILN_BASE_URL and KILN_MODEL, or [models.main] in .kiln.toml), "
    "or run `kiln local install` for the embedded local model."
)


def list_models(base_url: str, timeout: float = PROBE_TIMEOUT_S) -> list[str] | None:
    """Model ids a server offers at `/v1/models`, or None when nothing answers there."""
    try:
        response = httpx.get(base_url.rstrip("/") + "/models", timeout=timeout)
        response.raise_for_status()
        data = response.json().get("data", [])
        return [str(item["id"]) for item in data if isinstance(item, dict) and "id" in item]
    except (httpx.HTTPError, ValueError, AttributeError, KeyError):
        return None


def resolve_profile(settings: Settings, name: str = "main") -> ModelProfile:
    configured = settings.models.get(name)
    if configured is not None and configured.base_url:
        return _with_model(configured, name)
    if configured is not None and configured.model:
        raise ConfigError(
            f"models.{name}.model is set to {configured.model!r} but no base_url says where "
            "it is served; pass --base-url or set KILN_BASE_URL."
        )
    found = _running_local_server()
    if found is not None:
        return found
    try:
        from agent.local import default_profile
    except ImportError:
        default_profile = None  # type: ignore[assignment]
    if default_profile is not None:
        try:
            local = default_profile()
        except KilnError:
            raise
        except Exception as exc:  # the local model is optional; its failure must say so
            raise ConfigError(
                f"The embedded local model could not start ({exc}); run `kiln local status`."
            ) from None
        if local is not None:
            return local
    raise ConfigError(NOTHING_CONFIGURED)


def _with_model(profile: ModelProfile, name: str) -> ModelProfile:
    """A configured server without a model name: take the one it serves, when only one."""
    if profile.model:
        return profile
    models = list_models(profile.base_url)
    if models:
        return dataclasses.replace(profile, model=models[0])
    raise ConfigError(
        f"models.{name} has base_url {profile.base_url} but no model name; "
        "pass --model or set KILN_MODEL."
    )


def _running_local_server() -> ModelProfile | None:
    for _, base_url in LOCAL_SERVERS:
        models = list_models(base_url)
        if models:
            return ModelProfile(provider="openai", base_url=base_url, model=models[0])
    return None
