"""The embedded local model: install it, serve it, and use it when nothing else is set up.

Public entry points for the rest of kiln:
- `is_installed()`: the runtime and at least one model's verified weights are present.
- `install_steps(model)`: installs everything, yielding progress lines (resumable).
- `default_profile()`: a ModelProfile for the installed local model, serving it on demand.
"""

from __future__ import annotations

from agent.llm.base import ModelProfile
from agent.local.catalog import DEFAULT_MODEL, MODELS, PREFERENCE, ModelSpec
from agent.local.common import InstallStep, LocalModelError
from agent.local.install import install_steps
from agent.local.runtime import is_runtime_installed
from agent.local.weights import is_weights_installed

__all__ = [
    "DEFAULT_MODEL",
    "InstallStep",
    "LocalModelError",
    "default_profile",
    "install_steps",
    "installed_model",
    "is_installed",
    "profile_for",
]

INSTALL_HINT = "run `kiln local install` to set up the local model"


def installed_model() -> ModelSpec | None:
    """The preferred model whose verified weights are present, or None."""
    for name in PREFERENCE:
        if is_weights_installed(MODELS[name]):
            return MODELS[name]
    return None


def is_installed() -> bool:
    return installed_model() is not None and is_runtime_installed()


def profile_for(spec: ModelSpec, base_url: str, server_log: str = "") -> ModelProfile:
    return ModelProfile(
        provider="openai",
        base_url=base_url,
        model=spec.alias,
        context_window=spec.context_window,
        # One call per reply (generation stops after it); room for a whole small file.
        max_output_tokens=1024,
        # Tools described in kiln's own short prompt, calls written in <tool_call> tags: the
        # server's template sends the full JSON schemas and shows earlier calls with their
        # arguments double-encoded, and the 1.5B model then wrote `<tools>` blocks.
        tool_protocol="text",
        small_model=True,
        request_timeout_s=900.0,  # a long first prompt on two CPU cores takes minutes
        max_retries=2,
        # Low: the server's 0.8 made the 1.5B model ramble; with replies held to one JSON call
        # that cannot happen any more, but at 0.7 its edits got wilder (1/5 solved, not 2-3).
        temperature=0.2,
        server_log=server_log,  # the server streams no usage; its log has the true counts
    )


def default_profile() -> ModelProfile | None:
    """The installed local model, served now if it is not already; None if not installed.

    Raises LocalModelError when it is installed but its server will not start.
    """
    spec = installed_model()
    if spec is None or not is_runtime_installed():
        return None
    from agent.local.server import ensure_serving  # httpx only when it is needed

    state = ensure_serving(spec)
    return profile_for(spec, state.base_url, state.log)


def embedded_profile_at(base_url: str) -> ModelProfile | None:
    """The embedded model's profile when `base_url` is the URL of kiln's own running server
    (a person or a benchmark may name it): the same small model's prompts, tool protocol and
    true token counts as with nothing configured. None for any other server."""
    from agent.local.server import read_state

    state = read_state()
    if state is None or state.base_url.rstrip("/") != base_url.rstrip("/"):
        return None
    spec = MODELS.get(state.model)
    return profile_for(spec, state.base_url, state.log) if spec is not None else None
