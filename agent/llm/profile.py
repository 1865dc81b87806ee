"""A configured model (`[models.main]`, `[models.fast]`) and its prices.

Apart from `base.py`'s messages, chunks and client protocol: the settings hold these, and
the settings load before the TUI's first frame, which needs none of the rest (eight frozen
dataclasses and a protocol, 5-10 ms of CPU). `base.py` re-exports both.
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING

from sandbox.frozen import frozen

if TYPE_CHECKING:  # the events load with the run
    from agent.event_values import Usage


# Every effort word kiln takes: its own three, and the providers' others.
EFFORT_WORDS = ("none", "minimal", "low", "medium", "high", "xhigh", "max")
WIRE_APIS = ("auto", "chat", "responses")


@frozen
class Prices:
    """US dollars per million tokens; zero for local models."""

    input: float = field(default=0.0, metadata={"doc": "Per million uncached input tokens."})
    cached_input: float = field(
        default=0.0, metadata={"doc": "Per million input tokens read from the cache."}
    )
    cache_write: float = field(
        default=0.0, metadata={"doc": "Per million input tokens written to the cache."}
    )
    output: float = field(
        default=0.0, metadata={"doc": "Per million output tokens, reasoning included."}
    )

    def cost(self, usage: Usage) -> float:
        return (
            usage.uncached_input * self.input
            + usage.cached_input * self.cached_input
            + usage.cache_write * self.cache_write
            + usage.output * self.output
        ) / 1_000_000


@frozen
class ModelProfile:
    """One configured model: `[models.main]` or `[models.fast]`."""

    # Ollama's native chat API is chosen by kiln for a model Ollama serves unless the
    # person names a provider.
    provider: str = field(
        default="openai",
        metadata={
            "doc": "openai (any OpenAI-compatible server), anthropic or ollama (its "
            "native chat API)."
        },
    )
    base_url: str = field(
        default="",
        metadata={
            "doc": "The server's URL; `/v1` is added to one without a path. Empty: a "
            "server running on 127.0.0.1, else the embedded model."
        },
    )
    model: str = field(
        default="",
        metadata={"doc": "The model's name; empty: the first the server lists at `/v1/models`."},
    )
    api_key_env: str = field(
        default="",
        metadata={
            "doc": "The NAME of the variable holding the API key, never the key "
            "(else `KILN_API_KEY`)."
        },
    )
    # Not set, the window and the reply limit come from what kiln knows of the model
    # (`llm/models.toml`, filled in by the settings), else the server's word for the window.
    context_window: int = field(
        default=32768,
        metadata={
            "doc": "The model's context window in tokens; not set: kiln's model data, "
            "else what the server declares, else 32768."
        },
    )
    max_output_tokens: int = field(
        default=4096,
        metadata={
            "doc": "The reply limit in tokens; not set: kiln's model data (at most "
            "32000), else 4096."
        },
    )
    # Sent as the model's data says: `reasoning_effort`, `reasoning.effort`, Anthropic's
    # thinking budget or effort, Gemini's thinking level.
    effort: str = field(
        default="",
        metadata={
            "doc": "How hard a reasoning model thinks: low, medium or high (or the "
            "provider's own none, minimal, xhigh, max); empty leaves it to the provider."
        },
    )
    thinking_budget: int = field(
        default=0,
        metadata={
            "doc": "Claude's thinking budget in tokens: 0 takes the budget `effort` "
            "names; else at least 1024, and it turns thinking on."
        },
    )
    wire_api: str = field(
        default="auto",
        metadata={
            "doc": "The OpenAI wire API: auto (what kiln knows of the model, else chat "
            "completions), chat or responses."
        },
    )
    tool_protocol: str = field(
        default="auto",
        metadata={
            "doc": "native, text (tools described in the prompt, calls parsed from "
            "the reply) or auto (native, recovering calls written as text)."
        },
    )
    prices: Prices = field(
        default_factory=Prices,
        metadata={"doc": "US dollars per million tokens; all 0 and not set: kiln's price table."},
    )
    price_per_hour: float = field(
        default=0.0,
        metadata={
            "doc": "US dollars per hour of request wall time, for a model on hardware "
            "paid by the hour (a rented GPU), on top of the token prices."
        },
    )
    request_timeout_s: float = field(
        default=300.0,
        metadata={"doc": "The longest wait for the first byte of a reply, and for each after it."},
    )
    max_retries: int = field(
        default=5,
        metadata={"doc": "Retries after a 429, a 5xx, a connection error or a cut stream."},
    )
    # Small local models need it low: llama-cpp-python's server defaults to 0.8.
    temperature: float = field(
        default=-1.0,
        metadata={
            "doc": "The sampling temperature sent with each request; below 0 sends "
            "none (the server decides)."
        },
    )
    small_model: bool = field(
        default=False,
        metadata={
            "doc": "A model of a few billion parameters or less: a shorter system "
            "prompt with a worked example, the failing tests and the code they use in the first "
            "message, and with tool_protocol = text one JSON call a reply, enforced by the "
            "server."
        },
    )
    # agent/repair/candidates.py
    candidates: int = field(
        default=-1,
        metadata={
            "doc": "Test-verified candidates sampled after a failing fix; -1: 8 for a "
            "small model, else none."
        },
    )
    candidate_temperature: float = field(
        default=0.8, metadata={"doc": "The temperature candidates are sampled at."}
    )
    # That server streams no usage.
    server_log: str = field(
        default="",
        metadata={
            "doc": "A llama-cpp-python server's verbose log, read for each reply's "
            "true token counts (set for kiln's own local server)."
        },
    )
