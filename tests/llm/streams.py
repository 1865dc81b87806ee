"""Shared pieces for backend tests: kiln-like tool specs and a stream collector."""

from __future__ import annotations

from agent.llm.base import (
    Completion,
    Message,
    ModelClient,
    ModelEvent,
    ModelProfile,
    ReasoningChunk,
    RetryNotice,
    TextChunk,
    ToolSpec,
)
from agent.llm.openai_compat import OpenAICompatClient

TOOLS = [
    ToolSpec(
        "read_file",
        "Read a file of the repository.",
        {
            "type": "object",
            "properties": {
                "path": {"type": "string"},
                "start_line": {"type": "integer"},
                "end_line": {"type": "integer"},
            },
            "required": ["path"],
        },
    ),
    ToolSpec(
        "edit_file",
        "Replace old_text with new_text in a file.",
        {
            "type": "object",
            "properties": {
                "path": {"type": "string"},
                "old_text": {"type": "string"},
                "new_text": {"type": "string"},
                "replace_all": {"type": "boolean"},
            },
            "required": ["path", "old_text", "new_text"],
        },
    ),
    ToolSpec(
        "run",
        "Run a shell command in the sandbox.",
        {
            "type": "object",
            "properties": {"command": {"type": "string"}, "timeout_s": {"type": "number"}},
            "required": ["command"],
        },
    ),
    ToolSpec(
        "update_plan",
        "Replace the plan.",
        {
            "type": "object",
            "properties": {
                "steps": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "title": {"type": "string"},
                            "status": {
                                "type": "string",
                                "enum": ["pending", "in_progress", "done"],
                            },
                        },
                        "required": ["title", "status"],
                    },
                }
            },
            "required": ["steps"],
        },
    ),
]


def openai_client(base_url: str, **profile: object) -> OpenAICompatClient:
    """A client with no API key and millisecond backoff, so retries cost no time."""
    fields = {"base_url": base_url, "model": "m", **profile}
    return OpenAICompatClient(ModelProfile(**fields), env={}, backoff_base_s=0.01)  # type: ignore[arg-type]


USER = [Message("system", "You are kiln."), Message("user", "Fix the failing test.")]


class Collected:
    def __init__(self, events: list[ModelEvent]) -> None:
        self.events = events
        completions = [e for e in events if isinstance(e, Completion)]
        assert len(completions) == 1 and events[-1] is completions[0]
        self.completion = completions[0]

    @property
    def text(self) -> str:
        return "".join(e.text for e in self.events if isinstance(e, TextChunk))

    @property
    def reasoning(self) -> str:
        return "".join(e.text for e in self.events if isinstance(e, ReasoningChunk))

    @property
    def retries(self) -> list[RetryNotice]:
        return [e for e in self.events if isinstance(e, RetryNotice)]

    @property
    def text_after_last_retry(self) -> str:
        tail = self.events
        for i, e in enumerate(self.events):
            if isinstance(e, RetryNotice):
                tail = self.events[i + 1 :]
        return "".join(e.text for e in tail if isinstance(e, TextChunk))


async def collect(
    client: ModelClient, messages: list[Message] | None = None, tools: list[ToolSpec] | None = None
) -> Collected:
    events = [e async for e in client.stream(messages or USER, TOOLS if tools is None else tools)]
    return Collected(events)
