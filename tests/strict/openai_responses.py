"""OpenAI's Responses API (`POST /v1/responses`): the request shape it takes (B2), what it
refuses (B3-B6, A4 as `reasoning.effort`, and what the rules file adds: B10 temperature,
B11 encrypted reasoning), its event stream (B7) and usage (B8).

Stateless use is what kiln does: `store: false` with `include: ["reasoning.encrypted_content"]`,
every item passed back in `input`. The encrypted content here is the reasoning text sealed
with the server's HMAC, so an altered or foreign one is refused as OpenAI refuses it."""

from __future__ import annotations

import json
import re
import time
from typing import TYPE_CHECKING, Any

from agent.llm.scripted.wire import Reply, fragments, text_pieces, tokenize
from tests.strict.base import (
    DEFAULT_REASONING,
    Exchange,
    JsonReply,
    Outgoing,
    Refused,
    StreamReply,
    UsageReport,
    reply_for,
    seal,
    sse,
    unseal,
)
from tests.strict.chat import content_text, output_counts
from tests.strict.openai_models import effective_effort, openai_model

if TYPE_CHECKING:
    from tests.strict.openai_chat import OpenAIServer

PATH = "/v1/responses"
SEALED = "gAAAAA"  # OpenAI's encrypted content starts so (a Fernet token)
ASSISTANT_ITEMS = ("function_call", "message")


def _error(message: str, param: str | None, code: str | None) -> dict[str, Any]:
    return {
        "error": {"message": message, "type": "invalid_request_error", "param": param, "code": code}
    }


def _items(body: dict[str, Any]) -> list[dict[str, Any]]:
    items = body.get("input")
    if isinstance(items, str):
        return [{"type": "message", "role": "user", "content": items}]
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def _kind(item: dict[str, Any]) -> str:
    return str(item.get("type") or ("message" if "role" in item else ""))


# --- rules ----------------------------------------------------------------------------

_MOVED = {  # chat-completions parameter -> its Responses place
    "messages": "input",
    "max_tokens": "max_output_tokens",  # not confirmed (same pattern as 'messages')
    "max_completion_tokens": "max_output_tokens",  # not confirmed
    "reasoning_effort": "reasoning.effort",  # not confirmed
}


def b3_chat_parameters(body: dict[str, Any]) -> None:
    """B3: chat-completions parameters are refused with a pointer to the new one.
    Source: goose#2564 ('messages'). not confirmed: the same words for max_tokens,
    max_completion_tokens and reasoning_effort."""
    for old, new in _MOVED.items():
        if old in body:
            message = (
                f"Unsupported parameter: '{old}'. In the Responses API, this parameter has moved "
                f"to '{new}'. Try again with the new parameter. See the API documentation for "
                "more information: https://platform.openai.com/docs/api-reference/responses/create."
            )
            raise Refused("B3", 400, _error(message, old, "unsupported_parameter"))


def b4_flat_tools(body: dict[str, Any]) -> None:
    """B4: tools are flat `{type: function, name, parameters}`; a chat-shaped one lacks
    `name`. Source: codex-proxy#399, OmniRoute#1914; openai-python function_tool.py (B2)."""
    for n, tool in enumerate(body.get("tools") or []):
        if isinstance(tool, dict) and tool.get("type") == "function" and not tool.get("name"):
            param = f"tools[{n}].name"
            message = f"Missing required parameter: '{param}'."
            raise Refused("B4", 400, _error(message, param, "missing_required_parameter"))


def a4_effort(body: dict[str, Any]) -> None:
    """A4 on Responses: `reasoning.effort` a model lacks. Source: opencode#4451 (seen via
    Responses; the param there is masked as `***.effort`)."""
    from tests.strict.openai_chat import check_effort

    effort = (body.get("reasoning") or {}).get("effort")
    check_effort(str(body.get("model", "")), effort, "reasoning.effort")


def b10_temperature(body: dict[str, Any]) -> None:
    """B10 (added): a reasoning model that reasons refuses `temperature` on Responses.
    Source: OpenHands/software-agent-sdk#1837 (gpt-5.2, param temperature, code null);
    deepchat#655 (o3 via Responses); eva-agent#83 (o3-mini, code unsupported_parameter).
    As A3, allowed while the effort is none (not confirmed for Responses)."""
    row = openai_model(str(body.get("model", "")))
    effort = effective_effort(row, (body.get("reasoning") or {}).get("effort"))
    if row.reasoning and effort != "none" and body.get("temperature") is not None:
        message = "Unsupported parameter: 'temperature' is not supported with this model."
        raise Refused("B10", 400, _error(message, "temperature", None))


def _short(text: str) -> str:
    return f"{text[:4]}...{text[-4:]}"


def b6_b11_reasoning_items(
    body: dict[str, Any], stored: dict[str, dict[str, Any]], secret: bytes
) -> None:
    """B6: a reasoning item (or item_reference) given by id alone is looked up in what was
    stored: with `store: false` nothing was, so 404. A reasoning item needs the item that
    followed it. Source: opencode#2480 and copilot-sdk#615 (404); continue#8933,
    vercel/ai#7099 (following item); cookbook reasoning_items.
    B11 (added): encrypted content altered or from elsewhere. Source: openai/codex#8145,
    #8126 ("The encrypted content gAAA...DQ== could not be verified.", 400 assumed)."""
    items = _items(body)
    for n, item in enumerate(items):
        kind = _kind(item)
        if kind not in ("reasoning", "item_reference"):
            continue
        item_id = str(item.get("id", ""))
        sealed = item.get("encrypted_content")
        if kind == "reasoning" and sealed:
            if (
                not str(sealed).startswith(SEALED)
                or unseal(secret, "rs", str(sealed)[len(SEALED) :]) is None
            ):
                message = f"The encrypted content {_short(str(sealed))} could not be verified."
                raise Refused("B11", 400, _error(message, None, "invalid_encrypted_content"))
        elif item_id not in stored:
            message = (
                f"Item with id '{item_id}' not found. Items are not persisted when `store` is set "
                "to false. Try again with `store` set to true, or remove this item from your input."
            )
            raise Refused("B6", 404, _error(message, "input", None))
        following = items[n + 1] if n + 1 < len(items) else None
        if kind == "reasoning" and (
            following is None
            or _kind(following) not in ASSISTANT_ITEMS
            or (_kind(following) == "message" and following.get("role") != "assistant")
        ):
            message = f"Item '{item_id}' of type 'reasoning' was provided without its required following item."
            raise Refused("B6", 400, _error(message, "input", None))


def b5_call_pairing(body: dict[str, Any], earlier_calls: set[str]) -> None:
    """B5: stateless, a function_call_output needs its function_call (same call_id) earlier
    in input, and a function_call needs its output. Source: continue#10092,
    cursor-byok#307; azure-sdk-for-python#46092 (second text; its status not confirmed)."""
    calls = set(earlier_calls)
    answered: set[str] = set()
    for item in _items(body):
        kind, call_id = _kind(item), str(item.get("call_id", ""))
        if kind == "function_call":
            calls.add(call_id)
        elif kind == "function_call_output":
            if call_id not in calls:
                message = f"No tool call found for function call output with call_id {call_id}."
                raise Refused("B5", 400, _error(message, "input", None))
            answered.add(call_id)
    for item in _items(body):
        call_id = str(item.get("call_id", ""))
        if _kind(item) == "function_call" and call_id not in answered:
            message = f"No tool output found for function call {call_id}."
            raise Refused("B5", 400, _error(message, "input", None))


class Responses:
    """The endpoint, with the items a `store: true` request kept (for ids and chains)."""

    def __init__(self, owner: OpenAIServer) -> None:
        self.owner = owner
        self.stored: dict[str, dict[str, Any]] = {}  # item id -> item (with its reasoning text)
        self.responses: dict[str, list[dict[str, Any]]] = {}  # response id -> its items

    def create(self, ex: Exchange) -> Outgoing:
        body, server = ex.json, self.owner.server
        b3_chat_parameters(body)
        b4_flat_tools(body)
        a4_effort(body)
        b10_temperature(body)
        earlier = self._chain(body)
        b6_b11_reasoning_items(body, self.stored, server.secret)
        b5_call_pairing(
            body, {str(i.get("call_id")) for i in earlier if _kind(i) == "function_call"}
        )

        model = str(body.get("model", self.owner.model))
        row = openai_model(model)
        reasoning_cfg = body.get("reasoning") or {}
        thinks = row.reasoning and effective_effort(row, reasoning_cfg.get("effort")) != "none"
        index, turn, _ = ex.take_turn()
        reply = reply_for(
            turn, index, "call_", (turn.reasoning or DEFAULT_REASONING) if thinks else ""
        )
        tokens = self._prompt(body, earlier)
        cached = server.cached_prefix(tokens)
        output, reasoning_tokens = output_counts(reply)
        usage = {
            "input_tokens": len(tokens),
            "input_tokens_details": {"cached_tokens": cached},
            "output_tokens": output,
            "output_tokens_details": {"reasoning_tokens": reasoning_tokens},
            "total_tokens": len(tokens) + output,
        }
        report = UsageReport(ex.path, usage, len(tokens), cached, output, reasoning_tokens)
        items = self._output(reply, body, reasoning_cfg)
        response = {
            "id": server.new_id("resp_"),
            "object": "response",
            "created_at": int(time.time()),
            "status": "completed",
            "model": model,
            "output": items,
            "usage": usage,
            "store": body.get("store", True),
            "reasoning": {
                "effort": reasoning_cfg.get("effort"),
                "summary": reasoning_cfg.get("summary"),
            },
            "previous_response_id": body.get("previous_response_id"),
        }
        if body.get("store", True) is not False:
            self.responses[response["id"]] = [*earlier, *_items(body), *items]
        if not body.get("stream"):
            return JsonReply(payload=response, turn=index, usage=report)
        return StreamReply(frames=_events(response, reply), turn=index, usage=report)

    def _chain(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        """The items of `previous_response_id`'s conversation, when it was stored.
        not confirmed: the text of an unknown previous response."""
        previous = body.get("previous_response_id")
        if previous is None:
            return []
        if previous not in self.responses:
            message = f"Previous response with id '{previous}' not found."
            raise Refused(
                "B6", 400, _error(message, "previous_response_id", "previous_response_not_found")
            )
        return self.responses[previous]

    def _prompt(self, body: dict[str, Any], earlier: list[dict[str, Any]]) -> list[str]:
        tokens = tokenize(str(body.get("instructions") or ""))
        tokens += tokenize(json.dumps(body.get("tools", []), sort_keys=True))
        for item in [*earlier, *_items(body)]:
            kind = _kind(item)
            if kind == "message":
                tokens += tokenize(str(item.get("role", ""))) + tokenize(
                    content_text(item.get("content"))
                )
            elif kind == "function_call":
                tokens += tokenize(str(item.get("name", ""))) + tokenize(
                    str(item.get("arguments", ""))
                )
            elif kind == "function_call_output":
                tokens += tokenize(str(item.get("output", "")))
            elif kind in ("reasoning", "item_reference"):
                tokens += tokenize(self._reasoning_text(item))
        return tokens

    def _reasoning_text(self, item: dict[str, Any]) -> str:
        sealed = str(item.get("encrypted_content") or "")
        if sealed:
            return unseal(self.owner.server.secret, "rs", sealed[len(SEALED) :]) or ""
        return str(self.stored.get(str(item.get("id")), {}).get("_text", ""))

    def _output(
        self, reply: Reply, body: dict[str, Any], cfg: dict[str, Any]
    ) -> list[dict[str, Any]]:
        server = self.owner.server
        items: list[dict[str, Any]] = []
        if reply.reasoning:
            item: dict[str, Any] = {"id": server.new_id("rs_"), "type": "reasoning", "summary": []}
            if cfg.get("summary"):
                item["summary"] = [{"type": "summary_text", "text": reply.reasoning}]
            if "reasoning.encrypted_content" in (body.get("include") or []):
                item["encrypted_content"] = SEALED + seal(server.secret, "rs", reply.reasoning)
            if body.get("store", True) is not False:
                self.stored[item["id"]] = {**item, "_text": reply.reasoning}
            items.append(item)
        if reply.text:
            message: dict[str, Any] = {
                "id": server.new_id("msg_"),
                "type": "message",
                "status": "completed",
                "role": "assistant",
                "content": [{"type": "output_text", "text": reply.text, "annotations": []}],
            }
            if _has_phase(str(body.get("model", ""))):
                message["phase"] = "commentary" if reply.calls else "final_answer"
            items.append(message)
        for call in reply.calls:
            items.append(
                {
                    "id": server.new_id("fc_"),
                    "type": "function_call",
                    "status": "completed",
                    "call_id": call.id,
                    "name": call.name,
                    "arguments": call.arguments,
                }
            )
        return items


def _has_phase(model: str) -> bool:
    """B9: gpt-5.3-codex and later mark output messages with `phase`, to be resent as is
    (advice, no error: not checked). Source: openai-python response_output_message.py."""
    found = re.match(r"gpt-5\.(\d+)-codex", model.split("/")[-1])
    return found is not None and int(found.group(1)) >= 3


def _events(response: dict[str, Any], reply: Reply) -> list[bytes]:
    """B7: SSE with `event:` lines; each data has `type` and `sequence_number`; no [DONE].
    Source: openai-python types/responses/response_stream_event.py and the event files."""
    frames: list[bytes] = []

    def emit(kind: str, **data: Any) -> None:
        frames.append(sse({"type": kind, "sequence_number": len(frames), **data}, kind))

    started = {**response, "status": "in_progress", "output": [], "usage": None}
    emit("response.created", response=started)
    emit("response.in_progress", response=started)
    for at, item in enumerate(response["output"]):
        ids = {"item_id": item["id"], "output_index": at}
        if item["type"] == "reasoning":
            emit(
                "response.output_item.added",
                output_index=at,
                item={**item, "summary": [], "encrypted_content": None},
            )
            for s, part in enumerate(item["summary"]):
                emit(
                    "response.reasoning_summary_part.added",
                    **ids,
                    summary_index=s,
                    part={"type": "summary_text", "text": ""},
                )
                for piece in text_pieces(part["text"]):
                    emit(
                        "response.reasoning_summary_text.delta", **ids, summary_index=s, delta=piece
                    )
                emit(
                    "response.reasoning_summary_text.done",
                    **ids,
                    summary_index=s,
                    text=part["text"],
                )
                emit("response.reasoning_summary_part.done", **ids, summary_index=s, part=part)
        elif item["type"] == "message":
            part = item["content"][0]
            emit(
                "response.output_item.added",
                output_index=at,
                item={**item, "status": "in_progress", "content": []},
            )
            emit("response.content_part.added", **ids, content_index=0, part={**part, "text": ""})
            for piece in text_pieces(part["text"]):
                emit("response.output_text.delta", **ids, content_index=0, delta=piece, logprobs=[])
            emit(
                "response.output_text.done", **ids, content_index=0, text=part["text"], logprobs=[]
            )
            emit("response.content_part.done", **ids, content_index=0, part=part)
        else:
            emit(
                "response.output_item.added",
                output_index=at,
                item={**item, "status": "in_progress", "arguments": ""},
            )
            for piece in fragments(item["arguments"]):
                emit("response.function_call_arguments.delta", **ids, delta=piece)
            emit(
                "response.function_call_arguments.done",
                **ids,
                arguments=item["arguments"],
                name=item["name"],
            )
        emit("response.output_item.done", output_index=at, item=item)
    emit("response.completed", response=response)
    return frames
