"""Tool calls for models without native tool calling (`tool_protocol = "text"`).

The tools are described in the system prompt in a compact format, no `tools` field is
sent, and calls are parsed from the reply with the same recovery code that rescues text
calls on native servers. History is written back in the same format, so the model sees
its own earlier calls the way it was asked to write them.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

from agent.llm.base import Message, ModelClient, ModelEvent, ToolSpec
from agent.llm.recovery import signature
from agent.llm.recovery_stream import recover_stream

CALL_FORMAT = '```json\n{"name": "TOOL_NAME", "arguments": {...}}\n```'


def tool_instructions(tools: list[ToolSpec]) -> str:
    lines = [
        "# Tools",
        "To call a tool, reply with a JSON block in exactly this format, one block per call:",
        CALL_FORMAT,
        "The result comes back in the next message. The tools (`?` marks optional arguments):",
    ]
    for tool in tools:
        summary = " ".join(tool.description.split())
        lines.append(f"- {tool.name}{signature(tool)}: {summary}")
    return "\n".join(lines)


def written_call(name: str, arguments: dict[str, object]) -> str:
    return "```json\n" + json.dumps({"name": name, "arguments": arguments}) + "\n```"


def to_text_messages(messages: list[Message], tools: list[ToolSpec]) -> list[Message]:
    """The conversation with tools in the system prompt and calls/results as plain text."""
    instructions = tool_instructions(tools) if tools else ""
    out: list[Message] = []
    if instructions and not any(m.role == "system" for m in messages):
        out.append(Message(role="system", content=instructions, cache_breakpoint=True))
    placed = False
    for m in messages:
        if m.role == "system" and instructions and not placed:
            out.append(Message("system", f"{m.content}\n\n{instructions}", cache_breakpoint=True))
            placed = True
        elif m.role == "assistant" and m.tool_calls:
            calls = "\n".join(written_call(c.name, c.arguments) for c in m.tool_calls)
            text = f"{m.content}\n{calls}" if m.content else calls
            out.append(Message("assistant", text, cache_breakpoint=m.cache_breakpoint))
        elif m.role == "tool":
            result = f"Result of {m.name or 'the tool'}:\n{m.content}"
            if out and out[-1].role == "user":  # several results of one turn: one message
                previous = out.pop()
                result = f"{previous.content}\n\n{result}"
            out.append(Message("user", result, cache_breakpoint=m.cache_breakpoint))
        else:
            out.append(m)
    return out


class TextProtocolClient:
    """Wraps a backend: tools go into the prompt, calls come back out of the text."""

    def __init__(self, inner: ModelClient) -> None:
        self.inner = inner
        self.profile = inner.profile

    def stream(
        self, messages: list[Message], tools: list[ToolSpec], *, max_tokens: int | None = None
    ) -> AsyncIterator[ModelEvent]:
        events = self.inner.stream(to_text_messages(messages, tools), [], max_tokens=max_tokens)
        return recover_stream(events, tools)

    async def aclose(self) -> None:
        await self.inner.aclose()
