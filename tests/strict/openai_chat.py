"""OpenAI's API: `/v1/chat/completions` with the rules it checks (A1-A8, B1), the
Responses API at `/v1/responses` (see `openai_responses.py`) and `/v1/models`.

The rules follow the model the request names, as the real API does; the server's model is
the one `/v1/models` lists. Reasoning is never streamed on chat completions; it is counted
in `completion_tokens_details.reasoning_tokens` (A7)."""

from __future__ import annotations

import json
from typing import Any

from tests.strict import openai_responses
from tests.strict.base import (
    DEFAULT_REASONING,
    Exchange,
    JsonReply,
    Outgoing,
    Refused,
    UsageReport,
    listed,
    reply_for,
)
from tests.strict.chat import (
    ChatStyle,
    chat_reply,
    messages_of,
    openai_usage,
    output_counts,
    prompt_tokens,
)
from tests.strict.openai_models import effective_effort, openai_model
from tests.strict.providers import Provider

CHAT = "/v1/chat/completions"


def openai_error(message: str, param: str | None, code: str | None) -> dict[str, Any]:
    return {
        "error": {"message": message, "type": "invalid_request_error", "param": param, "code": code}
    }


# --- rules ----------------------------------------------------------------------------


def b1_responses_only(body: dict[str, Any]) -> None:
    """B1: Responses-only models are refused on chat completions with a 404.
    Source: tmuxai#82 (body), goose#2564 (status 404), vscode-openai#358."""
    if openai_model(str(body.get("model", ""))).responses_only:
        message = "This model is only supported in v1/responses and not in v1/chat/completions."
        raise Refused("B1", 404, openai_error(message, "model", None))


def a1_max_tokens(body: dict[str, Any]) -> None:
    """A1: reasoning models refuse `max_tokens`; `max_completion_tokens` is the parameter.
    Source: ComfyUI-Griptape#312 (gpt-5), YPrompt#26 (gpt-5.1), gollm#33 (o1, o3-mini),
    ESPHomeDesigner#379 (gpt-5.4); openai-python completion_create_params.py."""
    if body.get("max_tokens") is not None and openai_model(str(body.get("model", ""))).reasoning:
        message = (
            "Unsupported parameter: 'max_tokens' is not supported with this model. "
            "Use 'max_completion_tokens' instead."
        )
        raise Refused("A1", 400, openai_error(message, "max_tokens", "unsupported_parameter"))


def a2_a3_temperature(body: dict[str, Any]) -> None:
    """A2: reasoning models take only temperature 1, the value echoed as sent (0, 0.0, 0.2).
    Source: Cursor-Azure-GPT-5#33, qwen-code#921, OpenHands#4131.
    A3: gpt-5.1 and later allow it while the effort is none (their default); partly
    confirmed (LiteLLM gpt_5_transformation.py, not an API answer).
    not confirmed: top_p is checked the same way with the same words."""
    row = openai_model(str(body.get("model", "")))
    if not row.reasoning or effective_effort(row, body.get("reasoning_effort")) == "none":
        return
    for param in ("temperature", "top_p"):
        value = body.get(param)
        if value is not None and value != 1:
            message = (
                f"Unsupported value: '{param}' does not support {json.dumps(value)} with this "
                "model. Only the default (1) value is supported."
            )
            raise Refused("A2", 400, openai_error(message, param, "unsupported_value"))


def a4_effort_values(body: dict[str, Any]) -> None:
    """A4: a reasoning_effort value the model lacks is refused.
    Source: openai-python completion_create_params.py (reasoning_effort docstring),
    opencode#4451 (the text, seen via Responses). not confirmed: the chat `param` value."""
    effort = body.get("reasoning_effort")
    check_effort(str(body.get("model", "")), effort, "reasoning_effort")


def check_effort(model: str, effort: Any, param: str) -> None:
    row = openai_model(model)
    if effort is None or not row.reasoning or effort in row.efforts:
        return
    message = (
        f"Unsupported value: '{effort}' is not supported with the '{model}' model. "
        f"Supported values are: {listed(list(row.efforts))}."
    )
    raise Refused("A4", 400, openai_error(message, param, "unsupported_value"))


def a5_a6_tools_with_effort(body: dict[str, Any]) -> None:
    """A5: gpt-5.2/5.4 refuse function tools with an effort other than none.
    Source: pipecat#4043, openai-openapi#541, livekit/agents#5088.
    A6: the gpt-5.6 family refuses them unless "none" is sent (the default applies when no
    effort is sent). Source: webmcp-tools#417, joplin#16451, LibreChat#14231."""
    model = str(body.get("model", ""))
    row = openai_model(model)
    tools = [
        t for t in body.get("tools") or [] if isinstance(t, dict) and t.get("type") == "function"
    ]
    if not tools or not row.tools_with_effort:
        return
    sent = body.get("reasoning_effort")
    head = f"Function tools with reasoning_effort are not supported for {model} in /v1/chat/completions."
    if row.tools_with_effort == "A5" and sent is not None and sent != "none":
        message = f"{head} Please use /v1/responses instead."
        raise Refused("A5", 400, openai_error(message, "reasoning_effort", None))
    if row.tools_with_effort == "A6" and sent != "none":
        message = (
            f"{head} To use function tools, use /v1/responses or set reasoning_effort to 'none'."
        )
        raise Refused("A6", 400, openai_error(message, "reasoning_effort", None))


def a8_tool_calls_answered(body: dict[str, Any]) -> None:
    """A8: every assistant tool_calls id answered by a tool message after it; a tool message
    must answer one. Source: aliasrobotics/cai#111, BerriAI/litellm#10083 (first text).
    not confirmed: the orphan's text and both `param` values."""
    messages = messages_of(body)
    open_ids: list[str] = []
    for n, message in enumerate(messages):
        role = message.get("role")
        if role == "tool":
            call_id = message.get("tool_call_id")
            if call_id not in open_ids:
                text = (
                    "Invalid parameter: messages with role 'tool' must be a response to a "
                    "preceeding message with 'tool_calls'."
                )
                raise Refused("A8", 400, openai_error(text, f"messages.[{n}].role", None))
            open_ids.remove(call_id)
            continue
        if open_ids:
            break
        open_ids = [
            str(c.get("id")) for c in message.get("tool_calls") or [] if isinstance(c, dict)
        ]
    if open_ids:
        text = (
            "An assistant message with 'tool_calls' must be followed by tool messages responding "
            "to each 'tool_call_id'. The following tool_call_ids did not have response "
            f"messages: {', '.join(str(i) for i in open_ids)}"
        )
        raise Refused("A8", 400, openai_error(text, "messages", None))


CHAT_RULES = (
    b1_responses_only,
    a1_max_tokens,
    a4_effort_values,
    a2_a3_temperature,
    a5_a6_tools_with_effort,
    a8_tool_calls_answered,
)


# --- the server -----------------------------------------------------------------------


class OpenAIServer(Provider):
    reply_paths = (CHAT, openai_responses.PATH)

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.responses = openai_responses.Responses(self)
        self.routes = {
            ("POST", CHAT): self.chat,
            ("POST", openai_responses.PATH): self.responses.create,
            ("GET", "/v1/models"): self.models,
        }

    def models(self, ex: Exchange) -> Outgoing:
        entry = {"id": self.model, "object": "model", "created": 0, "owned_by": "system"}
        return JsonReply(payload={"object": "list", "data": [entry]})

    def chat(self, ex: Exchange) -> Outgoing:
        body = ex.json
        for rule in CHAT_RULES:
            rule(body)
        model = str(body.get("model", self.model))
        row = openai_model(model)
        index, turn, _ = ex.take_turn()
        thinks = row.reasoning and effective_effort(row, body.get("reasoning_effort")) != "none"
        reasoning = (turn.reasoning or DEFAULT_REASONING) if thinks else ""
        reply = reply_for(turn, index, "call_", reasoning)
        tokens = prompt_tokens(body, reasoning_read=False)
        cached = self.server.cached_prefix(tokens)
        output, reasoning_tokens = output_counts(reply)
        usage = openai_usage(len(tokens), cached, output, reasoning_tokens)
        report = UsageReport(ex.path, usage, len(tokens), cached, output, reasoning_tokens)
        return chat_reply(
            ex, reply, turn=index, model=model, usage=usage, report=report,
            style=ChatStyle(reasoning_field=None),
        )  # fmt: skip
