"""ModelClient protocol and the provider-neutral types the loop speaks.

Backends translate these to and from their wire format (OpenAI chat completions,
Anthropic Messages, a text protocol). Tool calls that small models write as text
are recovered inside the backend, so the loop only ever sees `ToolCall`s.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:  # the settings read this module's profile; the events load with the run
    from agent.events import Usage

Role = Literal["system", "user", "assistant", "tool"]


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: dict[str, Any]
    recovered_from_text: bool = False


@dataclass(frozen=True)
class Message:
    role: Role
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None  # for role == "tool"
    name: str | None = None  # tool name, for role == "tool"
    cache_breakpoint: bool = False  # end of the stable prefix (Anthropic cache_control)


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    parameters: dict[str, Any]  # JSON schema of the arguments object


# --- what a streaming request yields -------------------------------------------


@dataclass(frozen=True)
class TextChunk:
    text: str


@dataclass(frozen=True)
class ReasoningChunk:
    text: str


@dataclass(frozen=True)
class RetryNotice:
    """A retryable failure happened; the backend waits `delay_s` and tries again."""

    attempt: int
    delay_s: float
    reason: str


@dataclass(frozen=True)
class FormatProblem:
    """The reply looked like a tool call that could not be used; `correction` goes back."""

    correction: str


@dataclass(frozen=True)
class Completion:
    """Always the last event of a successful request."""

    message: Message  # role "assistant", with tool_calls (native or recovered)
    usage: Usage
    finish_reason: str = "stop"
    ttft_s: float | None = None
    duration_s: float = 0.0
    format_problems: tuple[FormatProblem, ...] = ()


ModelEvent = TextChunk | ReasoningChunk | RetryNotice | Completion


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

    provider: str = "openai"  # "openai" (any OpenAI-compatible server) | "anthropic"
    base_url: str = ""
    model: str = ""
    api_key_env: str = ""  # the NAME of the variable holding the key, never the key
    context_window: int = 32768
    max_output_tokens: int = 4096
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


class ModelClient(Protocol):
    profile: ModelProfile

    def stream(
        self,
        messages: list[Message],
        tools: list[ToolSpec],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> AsyncIterator[ModelEvent]:
        """Stream one reply; `temperature` overrides the profile's for this request.
        Raises agent.errors.ModelError when retries are exhausted."""
        ...

    async def aclose(self) -> None: ...
