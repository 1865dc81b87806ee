"""A configured model (`[models.main]`, `[models.fast]`) and its prices.

Apart from `base.py`'s messages, chunks and client protocol: the settings hold these, and
the settings load before the TUI's first frame, which needs none of the rest (eight frozen
dataclasses and a protocol, 5-10 ms of CPU). `base.py` re-exports both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the events load with the run
    from agent.event_values import Usage


# Every effort word kiln takes: its own three, and the providers' others.
EFFORT_WORDS = ("none", "minimal", "low", "medium", "high", "xhigh", "max")
WIRE_APIS = ("auto", "chat", "responses")


@dataclass(frozen=True)
class Prices:
    """US dollars per million tokens; zero for local models."""

    input: float = 0.0
    cached_input: float = 0.0
    cache_write: float = 0.0
    output: float = 0.0

    def cost(self, usage: Usage) -> float:
        return (
            usage.uncached_input * self.input
            + usage.cached_input * self.cached_input
            + usage.cache_write * self.cache_write
            + usage.output * self.output
        ) / 1_000_000


@dataclass(frozen=True)
class ModelProfile:
    """One configured model: `[models.main]` or `[models.fast]`."""

    # "openai" (any OpenAI-compatible server) | "anthropic" | "ollama" (its native chat API,
    # chosen by kiln for a model Ollama serves unless the person names a provider)
    provider: str = "openai"
    base_url: str = ""
    model: str = ""
    api_key_env: str = ""  # the NAME of the variable holding the key, never the key
    # The model's context window and reply limit. Not set, they come from what kiln knows
    # of the model (`llm/models.toml`, filled in by the settings), else the server's word
    # for the window, else these.
    context_window: int = 32768
    max_output_tokens: int = 4096
    # How hard a reasoning model thinks: low, medium or high (or the provider's own words,
    # such as minimal, none, xhigh, max); "" leaves it to the provider. Sent as the model's
    # data says: `reasoning_effort`, `reasoning.effort`, Anthropic's thinking budget or
    # effort, Gemini's thinking level.
    effort: str = ""
    # Claude's thinking budget in tokens, for a model that thinks by budget: 0 takes the
    # budget `effort` names; else at least 1024 (the API's least), and it turns thinking on.
    thinking_budget: int = 0
    # The OpenAI wire API: "auto" (what kiln knows of the model, else chat completions),
    # "chat" or "responses".
    wire_api: str = "auto"
    tool_protocol: str = "auto"  # "native" | "text" | "auto" (native, recovering text calls)
    prices: Prices = field(default_factory=Prices)  # all 0 and not set: kiln's price table
    # US dollars per hour of request wall time, for a model served on hardware paid by the
    # hour (a rented GPU); on top of the token prices, usually with those left at 0.
    price_per_hour: float = 0.0
    request_timeout_s: float = 300.0
    max_retries: int = 5
    # Sampling temperature sent with each request; below 0 sends none (the server decides).
    # Small local models need it low: llama-cpp-python's server defaults to 0.8.
    temperature: float = -1.0
    # A small model (a few billion parameters or less): kiln sends a shorter system prompt
    # with a worked example, puts the failing tests and the files they name into the first
    # message, and shows changed files after failing tests. With tool_protocol = "text",
    # each reply is one JSON call whose shape the server is asked to enforce.
    small_model: bool = False
    # Test-verified candidates after a failing fix (agent/repair/candidates.py): how many
    # to sample (-1: 8 for a small model, else none) and at what temperature.
    candidates: int = -1
    candidate_temperature: float = 0.8
    # A llama-cpp-python server's verbose log. That server streams no usage, so the true
    # token counts of each reply are read from this log (set for kiln's own local server).
    server_log: str = ""
