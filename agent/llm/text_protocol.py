"""Tool calls for models without native tool calling (`tool_protocol = "text"`).

The tools are described in the system prompt in a compact format, no `tools` field is
sent, and calls are parsed from the reply with the same recovery code that rescues text
calls on native servers. History is written back in the same format, so the model sees
its own earlier calls the way it was asked to write them.

Two styles: "fenced" (```json blocks, any number per reply, prose allowed) and "json"
(for small models: each reply is exactly one `{"name": ..., "arguments": ...}` object, and
an OpenAI-compatible server is asked to enforce that with a JSON schema, so the reply can
be nothing else: no prose, no invented results, no broken JSON, no second call). Results
come back in `<tool_response>` tags there, as Qwen- and Hermes-style models were trained.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from agent.llm.base import Message, ModelClient, ModelEvent, ToolSpec
from agent.llm.recovery import signature
from agent.llm.recovery_stream import recover_stream

CALL_FORMAT = '```json\n{"name": "TOOL_NAME", "arguments": {...}}\n```'
JSON_CALL_FORMAT = '{"name": "TOOL_NAME", "arguments": {...}}'


def tool_instructions(tools: list[ToolSpec], style: str = "fenced") -> str:
    lines = [
        "# Tools",
        "To call a tool, reply with a JSON block in exactly this format, one block per call:"
        if style == "fenced"
        else "Each reply is one tool call, a JSON object in exactly this format:",
        JSON_CALL_FORMAT if style == "json" else CALL_FORMAT,
        "The result comes back in the next message. The tools (`?` marks optional arguments):",
    ]
    for tool in tools:
        summary = " ".join(tool.description.split())
        lines.append(f"- {tool.name}{signature(tool)}: {summary}")
    return "\n".join(lines)


def written_call(name: str, arguments: dict[str, object], style: str = "fenced") -> str:
    call = json.dumps({"name": name, "arguments": arguments})
    return call if style == "json" else f"```json\n{call}\n```"


def call_schema(tools: list[ToolSpec]) -> dict[str, object]:
    """A JSON schema that only one call of one of `tools`, with valid arguments, fits."""
    return {
        "anyOf": [
            {
                "type": "object",
                "properties": {"name": {"const": t.name}, "arguments": t.parameters},
                "required": ["name", "arguments"],
            }
            for t in tools
        ]
    }


def to_text_messages(
    messages: list[Message], tools: list[ToolSpec], style: str = "fenced"
) -> list[Message]:
    """The conversation with tools in the system prompt and calls/results as plain text."""
    instructions = tool_instructions(tools, style) if tools else ""
    out: list[Message] = []
    if instructions and not any(m.role == "system" for m in messages):
        out.append(Message(role="system", content=instructions, cache_breakpoint=True))
    placed = False
    for m in messages:
        if m.role == "system" and instructions and not placed:
            out.append(Message("system", f"{m.content}\n\n{instructions}", cache_breakpoint=True))
            placed = True
        elif m.role == "assistant" and m.tool_calls:
            calls = "\n".join(written_call(c.name, c.arguments, style) for c in m.tool_calls)
            text = f"{m.content}\n{calls}" if m.content else calls
            out.append(Message("assistant", text, cache_breakpoint=m.cache_breakpoint))
        elif m.role == "tool":
            result = (
                f"<tool_response>\n{m.content}\n</tool_response>"
                if style == "json"
                else f"Result of {m.name or 'the tool'}:\n{m.content}"
            )
            if out and out[-1].role == "user":  # several results of one turn: one message
                previous = out.pop()
                result = f"{previous.content}\n\n{result}"
            out.append(Message("user", result, cache_breakpoint=m.cache_breakpoint))
        else:
            out.append(m)
    return out


class TextProtocolClient:
    """Wraps a backend: tools go into the prompt, calls come back out of the text."""

    def __init__(self, inner: ModelClient, style: str = "fenced") -> None:
        self.inner = inner
        self.profile = inner.profile
        self.style = style

    def stream(
        self,
        messages: list[Message],
        tools: list[ToolSpec],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> AsyncIterator[ModelEvent]:
        text_messages = to_text_messages(messages, tools, self.style)
        if self.style == "json" and tools and getattr(self.inner, "takes_shape", False):
            # llama.cpp's form (llama-cpp-python knows no other): a json_object with a schema.
            shape = {"type": "json_object", "schema": call_schema(tools)}
            inner: Any = self.inner  # the chat-completions client, or one adapting it
            events = inner.stream(
                text_messages, [], max_tokens=max_tokens, shape=shape, temperature=temperature
            )
        else:
            events = self.inner.stream(
                text_messages, [], max_tokens=max_tokens, temperature=temperature
            )
        return recover_stream(events, tools)

    async def aclose(self) -> None:
        await self.inner.aclose()
