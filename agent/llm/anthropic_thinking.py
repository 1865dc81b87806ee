"""Claude's extended thinking: whether a request thinks and with what budget, and the
thinking blocks of a reply, kept whole for the requests after it.

The rules (shared/reference/hosted-api-rules.md): a budget of at least 1024 tokens and below
`max_tokens`, which counts the thinking too (C1), and never above the model's output limit
(C9); with thinking on, no temperature but 1, no top_k or top_p, no forced tool use (C2);
each `thinking` block (its text and signature) and `redacted_thinking` block (its data)
goes back unchanged at the start of its assistant turn (C3, C4), and the turn whose
tool_use the last tool_result answers must start with one; with thinking off none is sent,
so none can stand in the final assistant message (C5).

Claude 5 thinks adaptively, on by default, and refuses a manual budget and sampling
parameters: its requests say `thinking: {type: "adaptive"}`, the effort as
`output_config.effort` (C7), and always carry the thinking blocks back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agent.llm.base import Message, ModelProfile
from agent.llm.facts import ModelFacts, effort_for, facts_for, on_client
from sandbox.frozen import frozen

API = "anthropic"  # Message.replay_api of what this client keeps
THINKING_TYPES = ("thinking", "redacted_thinking")
MIN_BUDGET = 1024  # C1
# The reply's own share kept when the model's output limit cuts the sum of budget and reply.
MIN_REPLY = 4096


@frozen
class Thinking:
    """What one request sends: `budget` 0 and not `adaptive` when it does not think."""

    budget: int
    max_tokens: int
    betas: tuple[str, ...] = ()
    adaptive: bool = False  # Claude 5's own thinking, with `effort` as output_config's
    effort: str = ""

    @property
    def on(self) -> bool:
        return bool(self.budget) or self.adaptive

    def body(self) -> dict[str, Any]:
        """The request's fields for it (C2: no temperature, top_k, top_p, tool_choice)."""
        if self.budget:
            return {"thinking": {"type": "enabled", "budget_tokens": self.budget}}
        if not self.adaptive:
            return {}
        fields: dict[str, Any] = {"thinking": {"type": "adaptive"}}
        if self.effort:
            fields["output_config"] = {"effort": self.effort}
        return fields


def facts_of(profile: ModelProfile) -> ModelFacts:
    return on_client(facts_for(profile.model), API)


def budget_for(profile: ModelProfile, facts: ModelFacts) -> int:
    """The thinking budget the profile asks of a model that takes one; 0 for none."""
    if facts.effort_as != "thinking_budget":
        return 0
    if profile.thinking_budget:
        return profile.thinking_budget
    effort = profile.effort.lower()
    if not effort or effort == "none":  # "none" turns thinking off, never to the least
        return 0
    return facts.budget(effort_for(facts, effort))


def plan(profile: ModelProfile, asked: int, facts: ModelFacts | None = None) -> Thinking:
    """The budget and `max_tokens` of a request whose reply may have `asked` tokens.

    Thinking counts toward max_tokens (C1), so max_tokens is the budget plus what was asked,
    cut to the model's output limit (C9) and to a quarter of the window (what the window
    keeps free for the reply, `prompts.window.Window.room`, so prompt and reply fit as the
    API checks); when cut, the reply gives way first, down to MIN_REPLY tokens, then the
    budget."""
    facts = facts or facts_of(profile)
    if facts.effort_as == "output_config.effort":  # thinks by itself; effort is a word
        return Thinking(0, asked, adaptive=True, effort=effort_for(facts, profile.effort))
    budget = budget_for(profile, facts)
    if not budget:
        return Thinking(0, asked)
    limit = budget + asked
    if facts.max_output:
        limit = min(limit, facts.max_output)
    if profile.context_window:
        limit = min(limit, profile.context_window // 4)
    budget = min(budget, limit - min(asked, MIN_REPLY))
    if budget < MIN_BUDGET or budget >= limit:
        return Thinking(0, asked)
    return Thinking(budget, limit, facts.betas)


def reply_reserve(profile: ModelProfile) -> int:
    """Tokens a main request's reply may take, its thinking included: what the window
    keeps free for it."""
    if profile.provider != API:
        return profile.max_output_tokens
    return plan(profile, profile.max_output_tokens).max_tokens


def replayed(message: Message) -> list[dict[str, Any]]:
    """The thinking blocks a message brought from this API, copied, in their order."""
    if message.replay_api != API:
        return []
    return [dict(block) for block in message.replay if block.get("type") in THINKING_TYPES]


def _tool_results(message: dict[str, Any]) -> bool:
    content = message["content"]
    return message["role"] == "user" and bool(content) and content[0].get("type") == "tool_result"


def starts_with_thinking(wire: Sequence[dict[str, Any]]) -> bool:
    """Whether the request may think (C3): when it ends with tool results, the assistant
    turn they belong to (every assistant message since the last user message that is not
    tool results) must start with a thinking block; without interleaved thinking the
    messages after its first carry none. A turn that began with none (thinking just turned
    on, a reply of another API) lets this request go without thinking instead; the next
    message of the person's brings it back."""
    if not wire or not _tool_results(wire[-1]):
        return True
    start = 0
    for n, message in enumerate(wire):
        if message["role"] == "user" and not _tool_results(message):
            start = n + 1
    if start >= len(wire) or wire[start]["role"] != "assistant" or not wire[start]["content"]:
        return True
    return wire[start]["content"][0].get("type") in THINKING_TYPES


class ThinkingBlocks:
    """A reply's thinking blocks as the stream builds them (C6): `content_block_start` opens
    one, `thinking_delta` adds its text, `signature_delta` its signature; a redacted block
    comes whole. Each is kept as it came, every field its start had."""

    def __init__(self) -> None:
        self.blocks: dict[int, dict[str, Any]] = {}

    def start(self, index: int, block: dict[str, Any]) -> str:
        """Opens the block at `index`; the thinking text it came with, if any."""
        self.blocks[index] = dict(block)
        if block.get("type") == "thinking":
            self.blocks[index].setdefault("thinking", "")
            self.blocks[index].setdefault("signature", "")
            return str(block.get("thinking") or "")
        return ""

    def thinking(self, index: int, text: str) -> None:
        block = self.blocks.setdefault(index, {"type": "thinking", "thinking": "", "signature": ""})
        block["thinking"] = str(block.get("thinking") or "") + text

    def signature(self, index: int, text: str) -> None:
        block = self.blocks.setdefault(index, {"type": "thinking", "thinking": "", "signature": ""})
        block["signature"] = str(block.get("signature") or "") + text

    def replay(self) -> tuple[dict[str, Any], ...]:
        return tuple(self.blocks[i] for i in sorted(self.blocks))

    def text(self) -> str:
        return "".join(
            str(b.get("thinking") or "") for b in self.replay() if b.get("type") == "thinking"
        )
