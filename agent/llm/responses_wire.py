"""The OpenAI Responses API's wire format: kiln's messages as `input` items, and a stream's
events folded back into text, reasoning, function calls, the items to send back and usage.

Request (B2-B6 of `shared/reference/hosted-api-rules.md`): leading system messages become
`instructions`; each assistant message its items in the order they came (reasoning with its
encrypted content, messages with their `phase`, function calls by `call_id`); each tool
result a `function_call_output` answering its call. The request is stateless (`store:
false`), so every item goes back whole (a reasoning item with its encrypted content: by id
alone it is looked up, and nothing was stored, B6) and without the `id` the server gave it,
as OpenAI's own stateless client (Codex) sends them (Azure refuses a reasoning item's id
when nothing is stored: vercel/ai#12687).
"""

from __future__ import annotations

import json
from typing import Any

from agent.events import Usage
from agent.llm.base import (
    FormatProblem,
    Message,
    ModelEvent,
    ReasoningChunk,
    TextChunk,
    ToolCall,
    ToolSpec,
)
from agent.llm.recovery import check_native_call
from agent.llm.reply_caps import utf8_size

API = "responses"  # Message.replay_api of the items this client keeps
NOT_RUN = "Not run: no result was recorded for this call."
# What a kept item loses before it goes back: the server's id (B6) and its status.
_SERVER_ONLY = ("id", "status")


def to_responses_input(messages: list[Message]) -> tuple[str, list[dict[str, Any]]]:
    """(instructions, input items); every function call answered, every output answering (B5)."""
    instructions: list[str] = []
    items: list[dict[str, Any]] = []
    pending: list[str] = []  # call ids sent and not answered yet
    sent: set[str] = set()

    def settle() -> None:  # a call left unanswered would be refused: answer it
        items.extend(_output(cid, NOT_RUN) for cid in pending)
        pending.clear()

    for m in messages:
        if m.role == "system" and not items:
            instructions.append(m.content)
        elif m.role == "tool":
            cid = m.tool_call_id or ""
            if cid in pending:
                pending.remove(cid)
                items.append(_output(cid, m.content))
            elif cid not in sent:  # answers no call sent: its words go as the person's
                items.append(
                    {"role": "user", "content": f"[{m.name or 'tool'} result]\n{m.content}"}
                )
        else:
            settle()
            if m.role == "assistant":
                own = assistant_items(m)
                items.extend(own)
                called = [i["call_id"] for i in own if i.get("type") == "function_call"]
                pending.extend(called)
                sent.update(called)
            elif m.content:
                items.append({"role": m.role, "content": m.content})
    settle()
    return "\n\n".join(instructions), items


def assistant_items(m: Message) -> list[dict[str, Any]]:
    """One assistant reply as items: what came back kept in its order (a message from
    another API keeps none), its text if no kept message holds it, then its calls."""
    calls = {c.id: c for c in m.tool_calls}
    items: list[dict[str, Any]] = []
    has_text = False
    for kept in m.replay if m.replay_api == API else ():
        kind = kept.get("type")
        if kind == "function_call":  # a place holder: the call as kiln holds it goes there
            call = calls.pop(str(kept.get("call_id", "")), None)
            if call is not None:
                items.append(_call(call))
        elif kind == "reasoning" and kept.get("encrypted_content"):
            items.append({k: v for k, v in kept.items() if k not in _SERVER_ONLY})
        elif kind == "message":
            items.append({k: v for k, v in kept.items() if k not in _SERVER_ONLY})
            has_text = True
    if m.content and not has_text:
        first_call = next(
            (i for i, item in enumerate(items) if item["type"] == "function_call"), len(items)
        )
        items.insert(first_call, {"role": "assistant", "content": m.content})
    items.extend(_call(c) for c in m.tool_calls if c.id in calls)
    # A reasoning item goes back only with the item that followed it (B6).
    return [
        item
        for i, item in enumerate(items)
        if item.get("type") != "reasoning"
        or (i + 1 < len(items) and items[i + 1].get("type") != "reasoning")
    ]


def to_responses_tools(tools: list[ToolSpec]) -> list[dict[str, Any]]:
    """Flat function tools (B4). `strict` is the API's default and would refuse kiln's
    schemas, whose optional properties are not all `required`."""
    return [
        {
            "type": "function",
            "name": t.name,
            "description": t.description,
            "parameters": t.parameters,
            "strict": False,
        }
        for t in tools
    ]


def _call(call: ToolCall) -> dict[str, Any]:
    return {
        "type": "function_call",
        "call_id": call.id,
        "name": call.name,
        "arguments": json.dumps(call.arguments),
    }


def _output(call_id: str, output: str) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": call_id, "output": output}


class ResponseAssembler:
    """Folds the stream's events (B7) into text, reasoning, calls, kept items and usage."""

    def __init__(self) -> None:
        self.text: list[str] = []
        self.reasoning: list[str] = []
        self.calls: dict[int, dict[str, str]] = {}  # by output_index
        self.kept: dict[int, dict[str, Any]] = {}  # items to send back, by output_index
        self.usage: dict[str, Any] | None = None
        self.status = ""  # completed | incomplete, once the response ended
        self.incomplete_reason = ""
        self.size = 0  # UTF-8 bytes of text, reasoning and arguments so far
        self._last_text = ""  # the (item, part) the last text came from
        self._last_summary = ""
        self._streamed: set[str] = set()  # items whose text or summary came in deltas

    @property
    def done(self) -> bool:
        return bool(self.status)

    def add(self, event: dict[str, Any]) -> list[ModelEvent]:
        kind = str(event.get("type", ""))
        index = event.get("output_index")
        if kind in ("response.output_text.delta", "response.refusal.delta"):
            self._streamed.add(str(event.get("item_id")))
            where = f"{event.get('item_id')}/{event.get('content_index')}"
            return self._text(str(event.get("delta", "")), where)
        if kind in ("response.reasoning_summary_text.delta", "response.reasoning_text.delta"):
            self._streamed.add(str(event.get("item_id")))
            where = f"{event.get('item_id')}/{event.get('summary_index')}"
            return self._reasoning(str(event.get("delta", "")), where)
        if kind in ("response.output_item.added", "response.output_item.done"):
            if isinstance(index, int):
                return self._item(index, event.get("item") or {}, done=kind.endswith("done"))
        elif kind == "response.function_call_arguments.delta" and isinstance(index, int):
            slot = self._slot(index, str(event.get("item_id", "")))
            slot["arguments"] += str(event.get("delta", ""))
            self.size += utf8_size(str(event.get("delta", "")))
        elif kind == "response.function_call_arguments.done" and isinstance(index, int):
            slot = self._slot(index, str(event.get("item_id", "")))
            self._whole_arguments(slot, event.get("arguments"))
            slot["name"] = slot["name"] or str(event.get("name") or "")
        elif kind in ("response.completed", "response.incomplete"):
            response = event.get("response") or {}
            self.usage = response.get("usage") or self.usage
            self.status = str(response.get("status") or kind.rsplit(".", 1)[-1])
            reason = (response.get("incomplete_details") or {}).get("reason")
            self.incomplete_reason = str(reason or "")
        return []

    def _text(self, delta: str, where: str) -> list[ModelEvent]:
        if not delta:
            return []
        if self._last_text and where != self._last_text:
            delta = "\n\n" + delta  # a new message or part: a paragraph apart
        self._last_text = where
        self.size += utf8_size(delta)
        self.text.append(delta)
        return [TextChunk(delta)]

    def _reasoning(self, delta: str, where: str) -> list[ModelEvent]:
        if not delta:
            return []
        if self._last_summary and where != self._last_summary:
            delta = "\n\n" + delta
        self._last_summary = where
        self.size += utf8_size(delta)
        self.reasoning.append(delta)
        return [ReasoningChunk(delta)]

    def _slot(self, index: int, item_id: str) -> dict[str, str]:
        return self.calls.setdefault(
            index, {"item_id": item_id, "call_id": "", "name": "", "arguments": ""}
        )

    def _whole_arguments(self, slot: dict[str, str], arguments: Any) -> None:
        if isinstance(arguments, dict):  # a few servers send an object, not a string
            arguments = json.dumps(arguments)
        if isinstance(arguments, str) and arguments != slot["arguments"]:
            self.size += max(0, utf8_size(arguments) - utf8_size(slot["arguments"]))
            slot["arguments"] = arguments

    def _item(self, index: int, item: dict[str, Any], *, done: bool) -> list[ModelEvent]:
        """An item begun or ended; text or a summary a server sent only whole is told here."""
        kind, whole = item.get("type"), f"{item.get('id')}/whole"
        events: list[ModelEvent] = []
        told = str(item.get("id")) in self._streamed
        if kind == "function_call":
            slot = self._slot(index, str(item.get("id", "")))
            slot["call_id"] = str(item.get("call_id") or slot["call_id"])
            slot["name"] = str(item.get("name") or slot["name"])
            if done or item.get("arguments"):
                self._whole_arguments(slot, item.get("arguments"))
            # Its place among the kept items; the call itself goes back as kiln holds it.
            self.kept[index] = {"type": "function_call", "call_id": slot["call_id"]}
        elif done and kind == "reasoning":
            if item.get("encrypted_content"):  # without it, nothing could go back (B6)
                self.kept[index] = item
            for n, part in enumerate([] if told else item.get("summary") or []):
                if isinstance(part, dict) and part.get("text"):
                    events += self._reasoning(str(part["text"]), f"{whole}{n}")
        elif done and kind == "message" and item.get("role", "assistant") == "assistant":
            self.kept[index] = item
            for n, part in enumerate([] if told else item.get("content") or []):
                if isinstance(part, dict) and part.get("text"):
                    events += self._text(str(part["text"]), f"{whole}{n}")
        return events

    def tool_calls(self, tools: list[ToolSpec]) -> tuple[list[ToolCall], list[FormatProblem]]:
        calls: list[ToolCall] = []
        problems: list[FormatProblem] = []
        for index in sorted(self.calls):
            slot = self.calls[index]
            call_id = slot["call_id"] or slot["item_id"] or f"call_{index}"
            checked = check_native_call(slot["name"], slot["arguments"], tools, call_id)
            (problems if isinstance(checked, FormatProblem) else calls).append(checked)  # type: ignore[arg-type]
        return calls, problems

    def replay(self) -> tuple[dict[str, Any], ...]:
        return tuple(self.kept[i] for i in sorted(self.kept))

    def finish_reason(self, calls: list[ToolCall]) -> str:
        if self.status == "incomplete":
            return "length" if self.incomplete_reason == "max_output_tokens" else "content_filter"
        return "tool_calls" if calls else "stop"

    def token_usage(self, estimate: Usage) -> Usage:
        """The server's counts (B8), or kiln's estimate when it sent none."""
        u = self.usage
        if not isinstance(u, dict) or "input_tokens" not in u:
            return estimate
        prompt = int(u.get("input_tokens") or 0)
        cached = min(int((u.get("input_tokens_details") or {}).get("cached_tokens") or 0), prompt)
        reasoning = int((u.get("output_tokens_details") or {}).get("reasoning_tokens") or 0)
        return Usage(
            uncached_input=prompt - cached,
            cached_input=cached,
            output=int(u.get("output_tokens") or 0),
            reasoning=reasoning,
        )
