"""The scripted server's OpenAI Responses API (`POST /v1/responses`): one reply as the
events a real server streams (B7 of `shared/reference/hosted-api-rules.md`), or whole.

A turn's reasoning comes as a reasoning item with its summary and an opaque
`encrypted_content` (what `store: false` with `include: ["reasoning.encrypted_content"]`
returns), its text as an assistant message with a `phase`, its calls as function calls by
`call_id`; usage names cached and reasoning tokens (B8). Pure: a `Reply` in, frames out.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from agent.llm.scripted.wire import Reply, count_tokens, fragments, text_pieces, tokenize


def usage(prompt: int, cached: int, output: int, reasoning: int) -> dict[str, Any]:
    return {
        "input_tokens": prompt,
        "input_tokens_details": {"cached_tokens": cached},
        "output_tokens": output,
        "output_tokens_details": {"reasoning_tokens": reasoning},
        "total_tokens": prompt + output,
    }


def prompt_tokens(body: dict[str, Any]) -> list[str]:
    """The request's tokens in order: tools, instructions, then every input item."""
    tokens = tokenize(json.dumps(body.get("tools", []), sort_keys=True))
    tokens += tokenize(str(body.get("instructions") or ""))
    items = body.get("input", [])
    for item in [{"role": "user", "content": items}] if isinstance(items, str) else items:
        if not isinstance(item, dict):
            continue
        tokens += tokenize(str(item.get("role") or item.get("type") or ""))
        content = item.get("content") or item.get("output") or ""
        if isinstance(content, list):
            content = " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
        tokens += tokenize(str(content))
        for key in ("name", "arguments", "encrypted_content"):
            tokens += tokenize(str(item.get(key) or ""))
    return tokens


def output_items(reply: Reply, rid: str) -> list[dict[str, Any]]:
    """The response's output, in order: reasoning, the message, the calls."""
    items: list[dict[str, Any]] = []
    if reply.reasoning:
        sealed = base64.b64encode(f"scripted:{rid}:{reply.reasoning}".encode()).decode()
        items.append(
            {
                "type": "reasoning",
                "id": f"rs_{rid}",
                "summary": [{"type": "summary_text", "text": reply.reasoning}],
                "encrypted_content": sealed,
            }
        )
    if reply.text:
        items.append(
            {
                "type": "message",
                "id": f"msg_{rid}",
                "role": "assistant",
                "status": "completed",
                "phase": "commentary" if reply.calls else "final_answer",
                "content": [{"type": "output_text", "text": reply.text, "annotations": []}],
            }
        )
    for n, call in enumerate(reply.calls):
        items.append(
            {
                "type": "function_call",
                "id": f"fc_{rid}_{n}",
                "call_id": call.id,
                "name": call.name,
                "arguments": call.arguments,
                "status": "completed",
            }
        )
    return items


def response_object(
    reply: Reply, model: str, rid: str, used: dict[str, Any] | None, status: str = "completed"
) -> dict[str, Any]:
    return {
        "id": f"resp_{rid}",
        "object": "response",
        "status": status,
        "model": model,
        "output": output_items(reply, rid) if status == "completed" else [],
        "usage": used,
    }


def events(reply: Reply, model: str, rid: str, used: dict[str, Any]) -> list[tuple[str, dict]]:
    """(event name, data) pairs of a streamed response, each with its sequence_number."""
    out: list[tuple[str, dict[str, Any]]] = []

    def emit(kind: str, **data: Any) -> None:
        out.append((kind, {"type": kind, "sequence_number": len(out), **data}))

    emit("response.created", response=response_object(reply, model, rid, None, "in_progress"))
    emit("response.in_progress", response=response_object(reply, model, rid, None, "in_progress"))
    for index, item in enumerate(output_items(reply, rid)):
        at = {"output_index": index, "item_id": item["id"]}
        emit("response.output_item.added", output_index=index, item=_begun(item))
        if item["type"] == "reasoning":
            summary = {"type": "summary_text", "text": ""}
            emit("response.reasoning_summary_part.added", **at, summary_index=0, part=summary)
            for piece in text_pieces(reply.reasoning):
                emit("response.reasoning_summary_text.delta", **at, summary_index=0, delta=piece)
            emit(
                "response.reasoning_summary_text.done", **at, summary_index=0, text=reply.reasoning
            )
        elif item["type"] == "message":
            empty = {"type": "output_text", "text": "", "annotations": []}
            emit("response.content_part.added", **at, content_index=0, part=empty)
            for piece in text_pieces(reply.text):
                emit("response.output_text.delta", **at, content_index=0, delta=piece)
            emit("response.output_text.done", **at, content_index=0, text=reply.text)
            emit("response.content_part.done", **at, content_index=0, part=item["content"][0])
        else:
            for piece in fragments(item["arguments"]):
                emit("response.function_call_arguments.delta", **at, delta=piece)
            emit(
                "response.function_call_arguments.done",
                **at,
                name=item["name"],
                arguments=item["arguments"],
            )
        emit("response.output_item.done", output_index=index, item=item)
    emit("response.completed", response=response_object(reply, model, rid, used))
    return out


def _begun(item: dict[str, Any]) -> dict[str, Any]:
    """An item as `output_item.added` shows it: its text and arguments still to come."""
    if item["type"] == "message":
        return {**item, "status": "in_progress", "content": []}
    if item["type"] == "function_call":
        return {**item, "status": "in_progress", "arguments": ""}
    return {**item, "summary": [], "encrypted_content": None}


def reasoning_tokens(reply: Reply) -> int:
    return count_tokens(reply.reasoning)
