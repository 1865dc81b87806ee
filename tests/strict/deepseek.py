"""DeepSeek (`https://api.deepseek.com`, chat completions at `/chat/completions` and
`/v1/chat/completions`): V4 thinking mode's rule that reasoning comes back on tool-call
turns (E3; V3.2's words for it, E2, with the option `version="v3.2"`) and its usage with
cache hit/miss tokens (E4). Reasoning streams as `reasoning_content`. Left out: E1, the
R1-era refusal of reasoning_content sent back (that API is gone)."""

from __future__ import annotations

from typing import Any

from tests.strict.base import JsonReply, Refused
from tests.strict.chat_server import ChatProvider, Rule, messages_since_user

CACHE_UNIT = 64  # not confirmed: cache hits counted in 64-token units (context-caching docs)


def ds_error(message: str) -> dict[str, Any]:
    """DeepSeek's error body. Source: modelparams.dev#29 (E3's body)."""
    error = {"message": message, "type": "invalid_request_error", "param": None}
    return {"error": {**error, "code": "invalid_request_error"}}


class DeepSeekServer(ChatProvider):
    base_path = ""
    has_thinking_switch = True

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.reply_paths = ("/chat/completions", "/v1/chat/completions")
        for path in self.reply_paths:
            self.routes[("POST", path)] = self.chat
        self.routes[("GET", "/models")] = self.models

    def rules(self) -> tuple[Rule, ...]:
        return (self.e3_reasoning_back,)

    def thinks(self, body: dict[str, Any]) -> bool:
        """E3: deepseek-reasoner is V4 thinking mode, deepseek-chat non-thinking; V4 names
        think unless `thinking: {type: disabled}`. Source: api-docs.deepseek.com/guides/
        thinking_mode (as summarised in the rules file's sources)."""
        model = str(body.get("model", self.model))
        switch = (body.get("thinking") or {}).get("type")
        if model == "deepseek-chat":
            return switch == "enabled"
        return switch != "disabled"

    def e3_reasoning_back(self, body: dict[str, Any]) -> None:
        """E3: in thinking mode, the assistant messages of a tool-calling turn carry their
        reasoning_content back. Source: modelparams.dev#29 (body), langchain#37713,
        kilocode#9452, deepseek-v4-for-copilot#148. not confirmed: that only the current
        turn (since the last user message) is checked; older turns' reasoning is ignored.
        E2: V3.2's words for the same rule (option `version="v3.2"`). Source: zed PR #44301,
        langchain#34745. not confirmed: E2's body around the text."""
        if not self.thinks(body):
            return
        for n, message in messages_since_user(body):
            if (
                message.get("role") == "assistant"
                and message.get("tool_calls")
                and not message.get("reasoning_content")
            ):
                if self.options.get("version") == "v3.2":
                    text = f"Missing `reasoning_content` field in the assistant message at message index {n}"
                    raise Refused("E2", 400, ds_error(text))
                text = (
                    "The `reasoning_content` in the thinking mode must be passed back to the API."
                )
                raise Refused("E3", 400, ds_error(text))

    def cached(self, tokens: list[str]) -> int:
        return self.server.cached_prefix(tokens) // CACHE_UNIT * CACHE_UNIT

    def usage(self, prompt: int, cached: int, output: int, reasoning: int) -> dict[str, Any]:
        """E4: prompt_cache_hit_tokens + prompt_cache_miss_tokens = prompt_tokens; reasoning
        tokens inside completion_tokens. Source: DeepSeek's context-caching docs; kiln's
        openai_compat reads prompt_cache_hit_tokens."""
        return {
            "prompt_tokens": prompt,
            "completion_tokens": output,
            "total_tokens": prompt + output,
            "prompt_cache_hit_tokens": cached,
            "prompt_cache_miss_tokens": prompt - cached,
            "completion_tokens_details": {"reasoning_tokens": reasoning},
        }

    def models(self, ex: Any) -> JsonReply:
        data = [
            {"id": m, "object": "model", "owned_by": "deepseek"}
            for m in ("deepseek-chat", "deepseek-reasoner")
        ]
        return JsonReply(payload={"object": "list", "data": data})
