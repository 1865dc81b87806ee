"""What a server says about its context window and its tokenizer.

Servers say it in their own ways: llama.cpp `GET /props` (n_ctx) and `POST /tokenize`,
vLLM `GET /v1/models` (max_model_len) and `POST /tokenize`, Ollama `GET /api/ps` (the
context it serves a loaded model; `POST /api/show` says only what the model takes). Hosted
APIs say nothing; then the profile's configured window (or the safe default) stands.
Every probe is short (but Ollama's load of the model) and a failure of any kind is only
"unknown".
"""

from __future__ import annotations

import contextlib
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx

from agent.llm.tls import tls_context
from sandbox.frozen import frozen

PROBE_TIMEOUT_S = 3.0
OLLAMA_PORT = 11434
OLLAMA_LOAD_TIMEOUT_S = 120.0  # a model's load, as its first request would wait for it
OLLAMA_LEAST = 2048  # what an Ollama that does not say serves at the least (its old default)
OLLAMA_SUGGESTED = 32768  # what kiln asks the person to serve, when the model takes that


def server_root(base_url: str) -> str:
    """http://host:port/v1 -> http://host:port (where llama.cpp and Ollama answer)."""
    parts = urlsplit(base_url.rstrip("/"))
    path = parts.path
    for suffix in ("/v1", "/api"):
        if path.endswith(suffix):
            path = path[: -len(suffix)]
    return urlunsplit((parts.scheme, parts.netloc, path, "", "")).rstrip("/")


@frozen
class Served:
    """A window a server declared: its tokens, which server said it (its `/tokenize` takes
    its own body), and a sentence for the person when it serves less than the model takes."""

    tokens: int
    server: str  # "llama.cpp", "vllm", "ollama" or "other"
    note: str = ""


async def served_window(base_url: str, model: str) -> int | None:
    """The context window the server at `base_url` declares for `model`, or None."""
    served = await served_context(base_url, model)
    return served.tokens if served else None


async def served_context(base_url: str, model: str) -> Served | None:
    """The context window the server at `base_url` declares for `model`, or None.

    `/v1/models` first, which each of them answers, and each server is then asked only
    its own way: vLLM names itself there (`owned_by`) with its `max_model_len`; llama.cpp
    names itself, its window `/props`' n_ctx; Ollama lists its models as `library`'s (or
    listens on 11434), its served context from `/api/ps`. Any other says its window in that
    entry or not at all (a hosted API). Asked without the API key: these are a local
    server's questions, and a key must go nowhere but the requests it is for."""
    root, base = server_root(base_url), base_url.rstrip("/")
    async with httpx.AsyncClient(timeout=PROBE_TIMEOUT_S, verify=tls_context(base_url)) as http:
        entry = await _models_entry(http, base, model)
        owner = str(entry.get("owned_by") or "")
        if owner == "vllm":
            return _window(entry.get("max_model_len"), "vllm")
        if owner == "llamacpp":
            return _window(await _llama_cpp(http, root), "llama.cpp")
        if _maybe_ollama(entry, base_url):
            served = await _ollama(http, root, model)
            if served:
                return served
    # Another server's own word (the scripted server's max_model_len, a router's
    # context_length), whose tokenizer, if any, is found by asking.
    return _window(entry.get("max_model_len") or entry.get("context_length"), "other")


def _window(said: Any, server: str) -> Served | None:
    with contextlib.suppress(ValueError, TypeError):
        if said and int(said) > 0:
            return Served(int(said), server)
    return None


async def _models_entry(http: httpx.AsyncClient, base: str, model: str) -> dict[str, Any]:
    """`/v1/models`' entry for the model (the only one, when it lists one; the first, when
    no model is named); {} for none."""
    with contextlib.suppress(httpx.HTTPError, ValueError, TypeError, AttributeError):
        reply = await http.get(f"{base}/models")
        reply.raise_for_status()
        entries = [e for e in reply.json().get("data") or [] if isinstance(e, dict)]
        for entry in entries:
            if entry.get("id") == model or len(entries) == 1 or not model:
                return entry
    return {}


async def _llama_cpp(http: httpx.AsyncClient, root: str) -> Any:
    """`/props`' n_ctx; None when the server has no such page."""
    with contextlib.suppress(httpx.HTTPError, ValueError, TypeError, AttributeError):
        reply = await http.get(f"{root}/props")
        reply.raise_for_status()
        data = reply.json()
        settings = data.get("default_generation_settings") or {}
        return settings.get("n_ctx") or data.get("n_ctx")
    return None


async def ollama_trained(base_url: str, model: str) -> int | None:
    """When Ollama serves `model` at `base_url`: the context the model was trained for (0
    when it does not say); None for any other server. Nothing asked loads the model."""
    root, base = server_root(base_url), base_url.rstrip("/")
    async with httpx.AsyncClient(timeout=PROBE_TIMEOUT_S, verify=tls_context(base_url)) as http:
        entry = await _models_entry(http, base, model)
        shown = await _ollama_show(http, root, model) if _maybe_ollama(entry, base_url) else None
    return None if shown is None else _trained(shown)


def _maybe_ollama(entry: dict[str, Any], base_url: str) -> bool:
    """Ollama lists its models as `library`'s (or a namespace's), and listens on 11434."""
    owner = str(entry.get("owned_by") or "")
    return bool(entry) and (owner == "library" or urlsplit(base_url).port == OLLAMA_PORT)


async def _ollama_show(http: httpx.AsyncClient, root: str, model: str) -> dict[str, Any] | None:
    with contextlib.suppress(httpx.HTTPError, ValueError, TypeError, AttributeError):
        reply = await http.post(f"{root}/api/show", json={"model": model})
        reply.raise_for_status()
        shown = reply.json()
        return shown if isinstance(shown, dict) else None
    return None


def _trained(shown: dict[str, Any]) -> int:
    info = shown.get("model_info") or {}
    return next((int(v) for k, v in info.items() if k.endswith(".context_length")), 0)


async def _ollama(http: httpx.AsyncClient, root: str, model: str) -> Served | None:
    """The context Ollama *serves* the model (H1, H2): `/api/ps` says it of a loaded model,
    so one not loaded yet is loaded first, as its first request would load it. `/api/show`
    says only what the model was trained for (and a Modelfile's `num_ctx`), while a default
    Ollama serves 4k (or by VRAM) and cuts a longer prompt silently."""
    shown = await _ollama_show(http, root, model)
    if shown is None:
        return None
    trained, served = _trained(shown), None
    with contextlib.suppress(httpx.HTTPError, ValueError, KeyError, TypeError, AttributeError):
        served = await _ollama_loaded(http, root, model)
        if served is None:
            await http.post(
                f"{root}/api/generate",
                json={"model": model, "stream": False},
                timeout=OLLAMA_LOAD_TIMEOUT_S,
            )
            served = await _ollama_loaded(http, root, model)
    if not served:  # an Ollama that does not say: the least it serves by default
        served = _modelfile_num_ctx(shown) or OLLAMA_LEAST
        if trained:
            served = min(served, trained)
    return Served(served, "ollama", _ollama_note(model, served, trained))


async def _ollama_loaded(http: httpx.AsyncClient, root: str, model: str) -> int | None:
    reply = await http.get(f"{root}/api/ps")
    reply.raise_for_status()
    names = {model, model if ":" in model else f"{model}:latest"}
    for entry in reply.json().get("models") or []:
        if {entry.get("name"), entry.get("model")} & names and entry.get("context_length"):
            return int(entry["context_length"])
    return None


def _modelfile_num_ctx(shown: dict[str, Any]) -> int:
    for line in str(shown.get("parameters") or "").splitlines():
        name, _, value = line.strip().partition(" ")
        if name == "num_ctx" and value.strip().isdigit():
            return int(value.strip())
    return 0


def _ollama_note(model: str, served: int, trained: int) -> str:
    """One sentence when Ollama serves less than the model takes, and how to raise it."""
    wanted = min(trained, OLLAMA_SUGGESTED) if trained else OLLAMA_SUGGESTED
    if served >= wanted:
        return ""
    takes = f" (the model takes {trained:,})" if trained else ""
    return (
        f"Ollama serves {model} a {served:,}-token context{takes}, so kiln keeps every prompt "
        f"within it; for more, start Ollama with OLLAMA_CONTEXT_LENGTH={wanted} or set "
        f"PARAMETER num_ctx {wanted} in the model's Modelfile."
    )


async def served_token_count(base_url: str, text: str, server: str = "") -> int | None:
    """How many tokens the server's own tokenizer makes of `text`, or None (Ollama has no
    tokenizer endpoint). Each server's `/tokenize` takes its own body: llama.cpp's
    `{content}`, vLLM's `{prompt}` (G2: `{prompt}` or `{messages}`, nothing else); a server
    not known yet is asked llama.cpp's way, then vLLM's."""
    if server == "ollama":
        return None
    root = server_root(base_url)
    async with httpx.AsyncClient(timeout=PROBE_TIMEOUT_S, verify=tls_context(base_url)) as http:
        if not server:  # not asked yet (a configured window): which server, by its word
            owner = (await _models_entry(http, base_url.rstrip("/"), "")).get("owned_by")
            server = {"vllm": "vllm", "llamacpp": "llama.cpp"}.get(str(owner), "")
        bodies = {"llama.cpp": ["content"], "vllm": ["prompt"]}.get(server, ["content", "prompt"])
        for key in bodies:
            with contextlib.suppress(httpx.HTTPError, ValueError, KeyError, TypeError):
                reply = await http.post(f"{root}/tokenize", json={key: text})
                reply.raise_for_status()
                counted = _token_count(reply.json())
                if counted:  # llama.cpp answers another body with no tokens
                    return counted
    return None


def _token_count(data: Any) -> int | None:
    tokens = data.get("tokens")
    if isinstance(tokens, list) and tokens:
        return len(tokens)
    count = data.get("count")  # vLLM's, beside its tokens
    return int(count) if count else None
