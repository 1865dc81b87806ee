"""Moonshot's Kimi (`https://api.moonshot.ai/v1`): reasoning_content on every assistant
tool-call message while thinking (F1), the fixed temperature of k2.5/k2.6 (F2), and usage
in the last chunk's `choices[0].usage` with `cached_tokens` at its top level (F3)."""

from __future__ import annotations

import json
from typing import Any

from tests.strict.base import Refused
from tests.strict.chat import ChatStyle
from tests.strict.chat_server import ChatProvider, Rule


def kimi_error(message: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": "invalid_request_error"}}


class KimiServer(ChatProvider):
    has_thinking_switch = True

    def error_body(self, status: int, message: str) -> Any:
        return kimi_error(message)

    def rules(self) -> tuple[Rule, ...]:
        return (self.f2_temperature, self.f1_reasoning_on_tool_calls)

    def _model(self, body: dict[str, Any]) -> str:
        return str(body.get("model", self.model))

    def thinks(self, body: dict[str, Any]) -> bool:
        """kimi-k2-thinking always thinks; kimi-k2.5/k2.6 unless `thinking: {type: disabled}`.
        Source: platform.moonshot.ai/docs/guide/use-kimi-k2-thinking-model."""
        model = self._model(body)
        if "thinking" in model:
            return True
        if model.startswith(("kimi-k2.5", "kimi-k2.6")):
            return (body.get("thinking") or {}).get("type") != "disabled"
        return False

    def f1_reasoning_on_tool_calls(self, body: dict[str, Any]) -> None:
        """F1: thinking on, every assistant tool-call message keeps its reasoning_content.
        Source: moonshot docs (use-kimi-k2-thinking-model); new-api#3121; mastra#12592;
        continue#11711; FastGPT#6357. not confirmed for kimi-k2-thinking (only the docs'
        "keep reasoning_content"; no refusal seen), applied to it all the same."""
        if not self.thinks(body):
            return
        for n, message in enumerate(body.get("messages") or []):
            if not isinstance(message, dict) or message.get("role") != "assistant":
                continue
            if message.get("tool_calls") and not message.get("reasoning_content"):
                text = f"thinking is enabled but reasoning_content is missing in assistant tool call message at index {n}"
                raise Refused("F1", 400, kimi_error(text))

    def f2_temperature(self, body: dict[str, Any]) -> None:
        """F2: kimi-k2.5/k2.6 take temperature 1 with thinking, 0.6 without. Source:
        opencyvis-phone#12, CountBot#61, nanobot#4967; oh-my-ppt#45 (0.6). not confirmed: the
        0.6 text; kimi-k2-thinking's 1.0 is a recommendation, not checked here."""
        model, temperature = self._model(body), body.get("temperature")
        if temperature is None or not model.startswith(("kimi-k2.5", "kimi-k2.6")):
            return
        allowed = 1 if self.thinks(body) else 0.6
        if temperature != allowed:
            raise Refused(
                "F2",
                400,
                kimi_error(
                    f"invalid temperature: only {json.dumps(allowed)} is allowed for this model"
                ),
            )

    def style(self, body: dict[str, Any]) -> ChatStyle:
        return ChatStyle(usage_in_choice=True)

    def usage(self, prompt: int, cached: int, output: int, reasoning: int) -> dict[str, Any]:
        """F3: cached_tokens at the top level of usage. Source: go-moonshot#17 (raw SSE),
        earendil-works/pi#2017, bike4mind#1089."""
        return {
            "prompt_tokens": prompt,
            "completion_tokens": output,
            "total_tokens": prompt + output,
            "cached_tokens": cached,
        }
