"""Tolerant tool calls while streaming: hold back text that may be a call, recover at the end.

Prose streams through at once. From a line that starts like a call (```json, `<tool_call>`,
`{`, `[{`) the text is held until the reply ends; then `recover_calls` decides. Held text
that was not a call is released as one last TextChunk before the Completion, and a
recovered call never shows up as text, so front ends show what the person should see.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator, Callable

from agent.llm.base import (
    Completion,
    ModelEvent,
    ModelProfile,
    RetryNotice,
    TextChunk,
    ToolSpec,
)
from agent.llm.recovery import CALL_LANGUAGES, recover_calls
from agent.llm.retry import retrying

_TAG = "<tool_call>"
_ARRAY_OF_OBJECTS = re.compile(r"\[\s*\{")


class TextHold:
    """Decides line by line whether streamed text may be shown yet."""

    def __init__(self) -> None:
        self.pending = ""
        self.held = ""
        self.holding = False
        self.in_code = False
        self.line_start = True

    def feed(self, text: str) -> str:
        """Add streamed text; return the part that is safe to show now."""
        if self.holding:
            self.held += text
            return ""
        self.pending += text
        out: list[str] = []
        while self.pending:
            newline = self.pending.find("\n")
            if self.line_start:
                verdict = self._classify(self.pending.lstrip(" \t"), complete=newline >= 0)
                if verdict == "wait":
                    break
                if verdict == "hold":
                    self.holding, self.held, self.pending = True, self.pending, ""
                    break
            if newline < 0:
                out.append(self.pending)
                self.pending, self.line_start = "", False
            else:
                out.append(self.pending[: newline + 1])
                self.pending, self.line_start = self.pending[newline + 1 :], True
        return "".join(out)

    def finish(self) -> str:
        """Everything not shown yet (held or still undecided)."""
        rest = self.held + self.pending
        self.held = self.pending = ""
        return rest

    def _classify(self, head: str, complete: bool) -> str:
        """ "plain", "hold" or "wait" (not enough text yet) for the line starting with head."""
        if not head:
            return "plain" if complete else "wait"
        if self.in_code:
            if head.startswith("```"):
                self.in_code = False
            elif "```".startswith(head) and not complete:
                return "wait"
            return "plain"
        if head[0] == "{" or _ARRAY_OF_OBJECTS.match(head) or head.startswith(_TAG):
            return "hold"
        if (
            head.rstrip() == "[" or (_TAG.startswith(head) and len(head) < len(_TAG))
        ) and not complete:
            return "wait"
        if head.startswith("```"):
            if not complete:
                return "wait"
            language = head[3:].split("\n", 1)[0].strip().lower()
            if language in CALL_LANGUAGES:
                return "hold"
            self.in_code = True
            return "plain"
        if "```".startswith(head) and not complete:
            return "wait"
        return "plain"


def finalize(completion: Completion, tools: list[ToolSpec]) -> Completion:
    """Recover text calls when the reply has no native calls and no native-call problems."""
    message = completion.message
    if message.tool_calls or completion.format_problems or not tools:
        return completion
    recovery = recover_calls(message.content, tools)
    if not recovery.calls and not recovery.problems:
        return completion
    return dataclasses.replace(
        completion,
        message=dataclasses.replace(
            message, content=recovery.text, tool_calls=tuple(recovery.calls)
        ),
        finish_reason="tool_calls" if recovery.calls else completion.finish_reason,
        format_problems=tuple(recovery.problems),
    )


async def recover_stream(
    events: AsyncIterator[ModelEvent], tools: list[ToolSpec]
) -> AsyncIterator[ModelEvent]:
    """Pass a backend's events through, holding call-like text and recovering calls."""
    hold = TextHold()
    shown = ""
    async for event in events:
        if not tools:
            yield event
        elif isinstance(event, RetryNotice):
            hold, shown = TextHold(), ""
            yield event
        elif isinstance(event, TextChunk):
            text = hold.feed(event.text)
            if text:
                shown += text
                yield TextChunk(text)
        elif isinstance(event, Completion):
            hold.finish()
            event = finalize(event, tools)
            content = event.message.content
            if content.startswith(shown) and len(content) > len(shown):
                yield TextChunk(content[len(shown) :])
            yield event
        else:
            yield event


def client_stream(
    attempt: Callable[[], AsyncIterator[ModelEvent]],
    profile: ModelProfile,
    tools: list[ToolSpec],
    *,
    base_url: str,
    backoff_base_s: float,
) -> AsyncIterator[ModelEvent]:
    """One reply as the OpenAI-family clients stream it: `attempt` retried as the profile
    allows, and calls written as text recovered unless the profile says "native"."""
    events = retrying(
        attempt,
        base_url=base_url,
        max_retries=profile.max_retries,
        timeout_s=profile.request_timeout_s,
        backoff_base_s=backoff_base_s,
    )
    return events if profile.tool_protocol == "native" else recover_stream(events, tools)
