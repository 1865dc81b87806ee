"""How full the model's context window is: tokens counted before a request is sent.

The server's own count is the truth, so it calibrates the estimate: the tokenizer where
the server offers one (`/tokenize`, at start, for a system prompt near the window), then
every reply's prompt tokens (how many tokens the prompt just sent really was). Between
the two, a request's size is its characters over the calibrated characters-per-token,
plus a margin.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from agent.llm.base import Message, ToolSpec

DEFAULT_WINDOW = 32768  # what a profile gets when neither config nor server says
ANTHROPIC_WINDOW = 200_000  # every current Claude model's
_PER_MESSAGE = 4  # role and separators, in tokens
_MARGIN = 1.1  # the estimate errs towards "too full"


def prompt_chars(messages: list[Message], tools: list[ToolSpec]) -> int:
    """Characters of everything a request sends before the reply."""
    chars = len(json.dumps([t.parameters for t in tools])) + sum(
        len(t.name) + len(t.description) for t in tools
    )
    for message in messages:
        chars += len(message.content)
        for call in message.tool_calls:
            chars += len(call.name) + len(json.dumps(call.arguments))
    return chars


@dataclass
class Window:
    """A model's context window and the running calibration of token counts."""

    tokens: int = DEFAULT_WINDOW
    reply_reserve: int = 4096  # the reply must fit too
    compact_at: float = 0.8  # share of the room where compaction starts
    chars_per_token: float = 3.0  # conservative until the server has said
    # Said by the config or the server. A guessed window compacts early but never cuts
    # the person's words to fit: the real window may well be larger.
    known: bool = True
    # The server that declared it ("llama.cpp", "vllm", "ollama", "other"; "" not asked):
    # whose `/tokenize` body calibrates the estimate.
    server: str = ""

    @property
    def room(self) -> int:
        """Tokens a prompt may have: the window less what the reply needs."""
        return max(self.tokens - min(self.reply_reserve, self.tokens // 4), 256)

    @property
    def threshold(self) -> int:
        return int(self.room * self.compact_at)

    def target(self, fixed: int) -> int:
        """Where a compaction brings the prompt down to: half the history's room free
        (`fixed` is what no compaction can shrink: system prompt, map, tools), so the next
        one is many requests away (each compaction costs the cached prefix once)."""
        return fixed + max(self.threshold - fixed, 0) // 2

    def estimate(self, messages: list[Message], tools: list[ToolSpec]) -> int:
        chars = prompt_chars(messages, tools)
        return int(chars / self.chars_per_token * _MARGIN) + _PER_MESSAGE * len(messages)

    def worth_counting(self, chars: int) -> bool:
        """Whether a prompt of `chars` characters is near enough to the room that the
        server's tokenizer should count it before it is sent: over a quarter of the room
        by the estimate. Under that no tokenizer makes it overflow (the densest, about 1.5
        characters a token, makes 1.8 times the estimate, under half the room), and the
        first reply's own count calibrates every estimate after it."""
        return chars / self.chars_per_token * _MARGIN > self.room / 4

    def calibrate(self, chars: int, tokens: int) -> None:
        """The server counted `tokens` for a prompt of `chars` characters."""
        if tokens > 0 and chars > 0:
            self.chars_per_token = max(chars / tokens, 0.5)

    def share(self, tokens: int) -> float:
        return tokens / self.tokens if self.tokens else 0.0
