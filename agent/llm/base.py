"""ModelClient protocol and the provider-neutral types the loop speaks.

Backends translate these to and from their wire format (OpenAI chat completions,
Anthropic Messages, a text protocol). Tool calls that small models write as text
are recovered inside the backend, so the loop only ever sees `ToolCall`s.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, Literal, Protocol

# A configured model lives apart, light to import: the settings name it, and the TUI's first
# frame loads the settings but none of the message and chunk types below.
from agent.llm.profile import ModelProfile as ModelProfile
from agent.llm.profile import Prices as Prices
from sandbox.frozen import frozen

if TYPE_CHECKING:  # the events load with the run
    from agent.event_values import Usage

Role = Literal["system", "user", "assistant", "tool"]


@frozen
class ToolCall:
    """One tool call the model asked for: its id, the tool's name and its arguments."""

    id: str
    name: str
    arguments: dict[str, Any]
    recovered_from_text: bool = False
    # What the provider attached to the call and wants back with it, as it came (Gemini's
    # `extra_content` holding the thought signature); None for most.
    extra: dict[str, Any] | None = None


@frozen
class Message:
    """One message of the conversation, in no provider's format: a role, text and tool calls."""

    role: Role
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None  # for role == "tool"
    name: str | None = None  # tool name, for role == "tool"
    cache_breakpoint: bool = False  # end of the stable prefix (Anthropic cache_control)
    # An assistant reply's reasoning text (`reasoning_content`): shown, stored, and sent back
    # where the model's data says the server wants it (DeepSeek and Kimi in thinking mode).
    reasoning: str = ""
    # Items the provider returned with the reply that must go back unchanged on the next
    # request (Anthropic's thinking blocks with their signatures, the Responses API's
    # reasoning items with their encrypted content), and the wire API they came from: a
    # client of another API (after /model) sends none of them.
    replay: tuple[dict[str, Any], ...] = ()
    replay_api: str = ""


@frozen
class ToolSpec:
    """A tool as offered to the model: its name, what it does and its arguments' JSON schema."""

    name: str
    description: str
    parameters: dict[str, Any]  # JSON schema of the arguments object


# --- what a streaming request yields -------------------------------------------


@frozen
class TextChunk:
    """A piece of the reply's text, as it streams."""

    text: str


@frozen
class ReasoningChunk:
    """A piece of the model's reasoning, as it streams, apart from the reply's text."""

    text: str


@frozen
class RetryNotice:
    """A retryable failure happened; the backend waits `delay_s` and tries again."""

    attempt: int
    delay_s: float
    reason: str


@frozen
class FormatProblem:
    """The reply looked like a tool call that could not be used; `correction` goes back."""

    correction: str


@frozen
class Completion:
    """Always the last event of a successful request."""

    message: Message  # role "assistant", with tool_calls (native or recovered)
    usage: Usage
    finish_reason: str = "stop"
    ttft_s: float | None = None
    duration_s: float = 0.0
    format_problems: tuple[FormatProblem, ...] = ()


@frozen
class Adapted:
    """The server refused a request for a reason the client could adapt to (a parameter
    renamed, a value it does not take, another API, tool calls as text): the client sent
    it again adapted and keeps the change for the session. `said` is for the person, once."""

    said: str


ModelEvent = TextChunk | ReasoningChunk | RetryNotice | Adapted | Completion


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
