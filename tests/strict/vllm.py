"""vLLM's OpenAI server started without `--enable-auto-tool-choice` / `--tool-call-parser`:
`tools` with no named or required choice are refused (G1), `/tokenize` takes `prompt` or
`messages` (G2), a request over `max_model_len` is refused (G3). Options: `context`
(max_model_len, default 32768). A request without tools gets the script's tool calls
written into the text, as a Qwen model writes them (`<tool_call>` tags) unless the turn
names another `text_tool_call` style."""

from __future__ import annotations

import dataclasses
from typing import Any

from agent.llm.scripted.script import Turn
from tests.strict.base import Exchange, JsonReply, Outgoing, Refused, tokenize
from tests.strict.chat import content_text, prompt_tokens
from tests.strict.chat_server import ChatProvider, Rule


def vllm_error(message: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": "BadRequestError", "param": None, "code": 400}}


def g1_auto_tool_choice(body: dict[str, Any]) -> None:
    """G1: tools with no tool_choice count as "auto", which needs the flags.
    Source: vllm entrypoints/openai/protocol.py check_tool_usage, serving_chat.py;
    ErrorResponse in engine/protocol.py; NeMo-Retriever troubleshooting doc."""
    if body.get("tools") and body.get("tool_choice", "auto") == "auto":
        message = (
            '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'
        )
        raise Refused("G1", 400, vllm_error(message))


class VLLMServer(ChatProvider):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.context = int(self.options.get("context", 32768))
        self.routes[("POST", "/tokenize")] = self.tokenize
        self.routes[("POST", "/detokenize")] = self.detokenize

    def error_body(self, status: int, message: str) -> Any:
        return {
            "error": {"message": message, "type": "BadRequestError", "param": None, "code": status}
        }

    def rules(self) -> tuple[Rule, ...]:
        return (g1_auto_tool_choice,)

    def model_entry(self) -> dict[str, Any]:
        return {
            "id": self.model,
            "object": "model",
            "owned_by": "vllm",
            "max_model_len": self.context,
        }

    def turn_for(self, body: dict[str, Any], turn: Turn) -> Turn:
        if body.get("tools") and body.get("tool_choice") != "none":
            return turn  # a named or required choice: guided decoding makes real tool calls
        return dataclasses.replace(turn, text_tool_call=turn.text_tool_call or "tags")

    def prompt_checks(self, ex: Exchange, tokens: list[str]) -> list[str]:
        """G3: prompt plus the output asked for above max_model_len is refused.
        Source: vLLM serving code (memory). not confirmed: the words, which change between
        versions."""
        body, window, prompt = ex.json, self.context, len(tokens)
        asked = body.get("max_completion_tokens") or body.get("max_tokens")
        if prompt > window:
            message = (
                f"This model's maximum context length is {window} tokens. However, your request has "
                f"{prompt} input tokens. Please reduce the length of the input messages."
            )
            raise Refused("G3", 400, vllm_error(message))
        if isinstance(asked, int) and prompt + asked > window:
            message = (
                f"This model's maximum context length is {window} tokens. However, you requested "
                f"{asked} output tokens and your prompt contains at least {prompt} input tokens, for "
                f"a total of at least {prompt + asked} tokens. Please reduce the length of the input "
                "prompt or the number of requested output tokens."
            )
            raise Refused("G3", 400, vllm_error(message))
        return tokens

    def usage(self, prompt: int, cached: int, output: int, reasoning: int) -> dict[str, Any]:
        """vLLM reports no cached tokens unless started with --enable-prompt-tokens-details."""
        return {
            "prompt_tokens": prompt,
            "total_tokens": prompt + output,
            "completion_tokens": output,
            "prompt_tokens_details": None,
        }

    def cached(self, tokens: list[str]) -> int:
        self.server.cached_prefix(tokens)
        return 0

    def tokenize(self, ex: Exchange) -> Outgoing:
        """G2: `{prompt}` (TokenizeCompletionRequest) or `{messages}` (TokenizeChatRequest);
        anything else fails validation. Source: vllm entrypoints/openai/protocol.py.
        not confirmed: the status and text of the validation error."""
        body = ex.json
        if isinstance(body.get("prompt"), str):
            tokens = tokenize(body["prompt"])
        elif isinstance(body.get("messages"), list):
            tokens = prompt_tokens({"messages": body["messages"], "tools": body.get("tools", [])})
        else:
            message = (
                "[{'type': 'missing', 'loc': ('body', 'TokenizeCompletionRequest', 'prompt'), "
                "'msg': 'Field required'}, {'type': 'missing', 'loc': ('body', "
                "'TokenizeChatRequest', 'messages'), 'msg': 'Field required'}]"
            )
            raise Refused("G2", 400, vllm_error(message))
        ids = list(range(len(tokens)))
        return JsonReply(payload={"count": len(ids), "max_model_len": self.context, "tokens": ids})

    def detokenize(self, ex: Exchange) -> Outgoing:
        return JsonReply(payload={"prompt": content_text(ex.json.get("tokens"))})
