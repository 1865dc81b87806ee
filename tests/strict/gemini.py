"""Gemini 3 on its OpenAI-compatible endpoint (`/v1beta/openai/chat/completions`): thought
signatures on tool calls (D1, D2) and the reasoning_effort values it takes (D3). Errors
come as a JSON list, as this endpoint sends them.

The signature rides in `tool_calls[0].extra_content.google.thought_signature` (the first
call of a parallel set only) and in a text-only reply's `extra_content`; it seals the
turn's hidden thoughts with the server's HMAC."""

from __future__ import annotations

from typing import Any

from tests.strict.base import Refused, seal, unseal
from tests.strict.chat import ChatStyle
from tests.strict.chat_server import ChatProvider, Rule, messages_since_user

EFFORTS = ("high", "low", "medium", "none")
SKIP = "skip_thought_signature_validator"


def gemini_error(message: str) -> list[dict[str, Any]]:
    return [{"error": {"code": 400, "message": message, "status": "INVALID_ARGUMENT"}}]


def _signature(call: Any) -> Any:
    extra = call.get("extra_content") if isinstance(call, dict) else None
    return ((extra or {}).get("google") or {}).get("thought_signature")


class GeminiServer(ChatProvider):
    base_path = "/v1beta/openai"
    chat_path = "/v1beta/openai/chat/completions"
    models_path = "/v1beta/openai/models"
    call_prefix = "function-call-"
    reasoning_read = False
    has_thinking_switch = True

    def error_body(self, status: int, message: str) -> Any:
        return [{"error": {"code": status, "message": message, "status": "INVALID_ARGUMENT"}}]

    def rules(self) -> tuple[Rule, ...]:
        return (self.d3_effort, self.d1_d2_signatures)

    def thinks(self, body: dict[str, Any]) -> bool:
        return body.get("reasoning_effort") != "none"

    def style(self, body: dict[str, Any]) -> ChatStyle:
        secret = self.server.secret
        signature = seal(secret, "thought", "thoughts of this turn")

        def first_call(index: int) -> dict[str, Any] | None:
            return (
                {"extra_content": {"google": {"thought_signature": signature}}}
                if index == 0
                else None
            )

        return ChatStyle(
            reasoning_field=None,
            call_extra=first_call,
            text_extra={"extra_content": {"google": {"thought_signature": signature}}},
        )

    def model_entry(self) -> dict[str, Any]:
        return {"id": f"models/{self.model}", "object": "model", "owned_by": "google"}

    def d3_effort(self, body: dict[str, Any]) -> None:
        """D3: the efforts the endpoint takes; it refused 'minimal' for gemini-3-flash-preview
        although the docs listed it. Source: discuss.ai.google.dev/t/117875, /t/118724.
        not confirmed: the same list for the other Gemini 3 models."""
        effort = body.get("reasoning_effort")
        if effort is not None and effort not in EFFORTS:
            message = f"Invalid reasoning_effort: {effort}. Valid values are: {', '.join(EFFORTS)}"
            raise Refused("D3", 400, gemini_error(message))

    def d1_d2_signatures(self, body: dict[str, Any]) -> None:
        """D1: Gemini 3 checks the current turn's (since the last user message) tool calls
        carry their thought signature (the first call of each set). Source:
        ai.google.dev/gemini-api/docs/thought-signatures; discuss.ai.google.dev/t/109823
        (the body); continue#8865; openai/codex#7519, #7586; 5ire#405.
        not confirmed: what `position` counts (here: the 1-based place among the
        non-system messages, as Gemini's contents number them).
        D2 (not confirmed, a reseller's FAQ): an altered signature is refused, the dummy
        `skip_thought_signature_validator` passes."""
        if not str(body.get("model", self.model)).removeprefix("models/").startswith("gemini-3"):
            return
        messages = body.get("messages") or []
        system = sum(
            1 for m in messages if isinstance(m, dict) and m.get("role") in ("system", "developer")
        )
        for n, message in messages_since_user(body):
            calls = message.get("tool_calls") or []
            if message.get("role") != "assistant" or not calls:
                continue
            signature = _signature(calls[0])
            name = str((calls[0].get("function") or {}).get("name", ""))
            if not signature:
                text = (
                    "Function call is missing a thought_signature in functionCall parts. This is "
                    "required for tools to work correctly, and missing thought_signature may lead to "
                    f"degraded model performance. Additional data, function call `default_api:{name}` , "
                    f"position {n + 1 - system}. Please refer to "
                    "https://ai.google.dev/gemini-api/docs/thought-signatures for more details."
                )
                raise Refused("D1", 400, gemini_error(text))
            if signature != SKIP and unseal(self.server.secret, "thought", signature) is None:
                raise Refused("D2", 400, gemini_error("Corrupted thought signature."))
