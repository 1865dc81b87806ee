"""A chat-completions provider: its rules run first, then the script's turn is served in
the provider's style (where reasoning and usage go). Gemini, DeepSeek, Kimi, vLLM, Ollama
and llama.cpp are each a subclass saying what differs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agent.llm.scripted.script import Turn
from tests.strict.base import (
    DEFAULT_REASONING,
    Exchange,
    JsonReply,
    Outgoing,
    UsageReport,
    reply_for,
)
from tests.strict.chat import ChatStyle, chat_reply, openai_usage, output_counts, prompt_tokens
from tests.strict.providers import Provider

Rule = Callable[[dict[str, Any]], None]


class ChatProvider(Provider):
    chat_path = "/v1/chat/completions"
    models_path = "/v1/models"
    call_prefix = "call_"
    reasoning_read = True  # reasoning_content passed back is part of the prompt
    # A local server says whatever reasoning the script gives; a hosted model with a
    # thinking switch reasons exactly when `thinks` (then always, by default text or not).
    has_thinking_switch = False

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.reply_paths = (self.chat_path,)
        self.routes = {("POST", self.chat_path): self.chat, ("GET", self.models_path): self.models}

    # --- what a provider says differently ----------------------------------------------

    def rules(self) -> tuple[Rule, ...]:
        return ()

    def thinks(self, body: dict[str, Any]) -> bool:
        """Whether this request's model reasons (and so always says some reasoning)."""
        return False

    def style(self, body: dict[str, Any]) -> ChatStyle:
        return ChatStyle()

    def cached(self, tokens: list[str]) -> int:
        return self.server.cached_prefix(tokens)

    def usage(self, prompt: int, cached: int, output: int, reasoning: int) -> dict[str, Any]:
        return openai_usage(prompt, cached, output, reasoning)

    def turn_for(self, body: dict[str, Any], turn: Turn) -> Turn:
        return turn

    def prompt_checks(self, ex: Exchange, tokens: list[str]) -> list[str]:
        """Refuse (or cut) a prompt the server cannot take; returns what it reads."""
        return tokens

    def model_entry(self) -> dict[str, Any]:
        return {"id": self.model, "object": "model", "created": 0, "owned_by": "system"}

    # --- endpoints ------------------------------------------------------------------------

    def models(self, ex: Exchange) -> Outgoing:
        return JsonReply(payload={"object": "list", "data": [self.model_entry()]})

    def chat(self, ex: Exchange) -> Outgoing:
        body = ex.json
        for rule in self.rules():
            rule(body)
        tokens = self.prompt_checks(ex, prompt_tokens(body, reasoning_read=self.reasoning_read))
        index, turn, _ = ex.take_turn()
        turn = self.turn_for(body, turn)
        if self.thinks(body):
            reasoning = turn.reasoning or DEFAULT_REASONING
        else:
            reasoning = "" if self.has_thinking_switch else turn.reasoning
        reply = reply_for(turn, index, self.call_prefix, reasoning)
        cached = self.cached(tokens)
        output, reasoning_tokens = output_counts(reply)
        usage = self.usage(len(tokens), cached, output, reasoning_tokens)
        report = UsageReport(ex.path, usage, len(tokens), cached, output, reasoning_tokens)
        model = str(body.get("model", self.model))
        return chat_reply(
            ex, reply, turn=index, model=model, usage=usage, report=report, style=self.style(body)
        )


def messages_since_user(body: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """(index, message) of the current turn: every message after the last user message."""
    messages = body.get("messages") or []
    last_user = max(
        (n for n, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "user"),
        default=-1,
    )
    return [(n, m) for n, m in enumerate(messages) if n > last_user and isinstance(m, dict)]
