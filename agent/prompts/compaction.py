"""Compaction: the conversation made smaller, never hidden, never losing what steers it.

Tier 1 replaces old tool outputs with one-line stubs (what ran, how long it was, its first
line). Tier 2 replaces older turns with a summary the model writes (the fast model where
there is one). Either way the person's task and every instruction they gave, the plan,
the latest failing-test digest and the files changed are kept word for word, outside any
summary, in the message that opens the compacted history.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agent.llm.base import Message
from sandbox.frozen import frozen

KEEP_RECENT = 4  # messages at the end that are never compacted: the work in hand
STUB_PREFIX = "[kiln compacted this result"
SUMMARY_HEADER = "[kiln compacted the earlier conversation to fit the model's context window]"
SUMMARY_PROMPT = """\
You are summarising a coding session so that you can carry on from the summary alone.
Write at most 250 words, as short lines: what was looked at and found, what was changed
and why, decisions taken, what failed and how, and what remains to do. Name files and
functions exactly. No preamble."""
_SHOWN_PER_MESSAGE = 1500  # characters of each old message the summariser reads


@frozen
class Pinned:
    """What compaction keeps word for word."""

    instructions: tuple[str, ...]  # the task and every later request of the person
    plan: str = ""
    failing_tests: str = ""
    changed_files: tuple[str, ...] = ()

    def labels(self) -> tuple[str, ...]:
        labels = [f"{len(self.instructions)} instruction(s) of the person"]
        if self.plan:
            labels.append("the plan")
        if self.failing_tests:
            labels.append("the latest failing tests")
        if self.changed_files:
            labels.append(f"{len(self.changed_files)} changed file name(s)")
        return tuple(labels)

    def text(self) -> str:
        parts = ["The person asked (word for word):"]
        parts += [f"- {instruction}" for instruction in self.instructions]
        if self.plan:
            parts += ["", "The plan so far:", self.plan]
        if self.changed_files:
            parts += ["", "Files changed so far: " + ", ".join(self.changed_files)]
        if self.failing_tests:
            parts += ["", "The latest test run:", self.failing_tests]
        return "\n".join(parts)


@dataclass
class Outcome:
    history: list[Message]
    tier: int
    compacted: int  # messages stubbed (tier 1) or summarised (tier 2)
    summary: str = ""
    kept: tuple[str, ...] = field(default_factory=tuple)


def stub_old_outputs(history: list[Message]) -> Outcome:
    """Tier 1: every tool result before the recent ones becomes a one-line stub."""
    calls = {c.id: c for m in history for c in m.tool_calls}
    recent = max(len(history) - KEEP_RECENT, 0)
    changed, stubbed = list(history), 0
    for index, message in enumerate(history[:recent]):
        if message.role != "tool" or message.content.startswith(STUB_PREFIX):
            continue
        if len(message.content) < 300:  # a stub would save nothing
            continue
        call = calls.get(message.tool_call_id or "")
        what = _call_line(call.name, call.arguments) if call else message.name or "a tool"
        first = next((line for line in message.content.splitlines() if line.strip()), "")
        stub = (
            f"{STUB_PREFIX} to save context: {what} gave {len(message.content)} characters, "
            f"starting {first[:120]!r}. Run it again if you need it.]"
        )
        changed[index] = Message("tool", stub, tool_call_id=message.tool_call_id, name=message.name)
        stubbed += 1
    return Outcome(changed, 1, stubbed)


def split_for_summary(history: list[Message]) -> int:
    """Where the summarised part ends: before the recent messages, at an assistant turn
    (so no tool result is separated from its call). 0 means nothing to summarise."""
    cut = max(len(history) - KEEP_RECENT, 0)
    while cut > 0 and history[cut].role != "assistant":
        cut -= 1
    return cut


def summary_request(old: list[Message], max_chars: int) -> list[Message]:
    """The messages asking a model to summarise `old`, within `max_chars`: an earlier
    summary always, then as many of the newest messages as fit."""
    earlier = [m.content for m in old if m.content.startswith(SUMMARY_HEADER)][-1:]
    lines: list[str] = []
    used = sum(len(e) for e in earlier)
    for message in reversed(old):
        if message.content.startswith(SUMMARY_HEADER):
            continue
        text = message.content
        if len(text) > _SHOWN_PER_MESSAGE:
            half = _SHOWN_PER_MESSAGE // 2
            text = text[:half] + "\n[...]\n" + text[-half:]
        calls = "; ".join(_call_line(c.name, c.arguments) for c in message.tool_calls)
        line = f"{message.role}: {text}" + (f"\n(calls: {calls})" if calls else "")
        if used + len(line) > max_chars:
            break
        lines.append(line)
        used += len(line)
    shown = [f"(an earlier summary)\n{e}" for e in earlier] + lines[::-1]
    return [Message("system", SUMMARY_PROMPT), Message("user", "\n\n".join(shown))]


def mechanical_summary(old: list[Message]) -> str:
    """A summary without a model (the model gave none): the calls made, in order."""
    lines = []
    for message in old:
        for call in message.tool_calls:
            lines.append(f"- called {_call_line(call.name, call.arguments)}")
    return "\n".join(lines[-40:]) or "- (no tool calls)"


def with_summary(history: list[Message], cut: int, summary: str, pinned: Pinned) -> Outcome:
    """Tier 2: history[:cut] becomes one message carrying the pinned part and the summary."""
    opening = f"{SUMMARY_HEADER}\n\n{pinned.text()}\n\nSummary of the earlier steps:\n{summary}"
    return Outcome(
        [Message("user", opening), *history[cut:]], 2, cut, summary, ("summary", *pinned.labels())
    )


def _call_line(name: str, arguments: dict[str, object]) -> str:
    shown = {k: v for k, v in arguments.items() if k not in ("content", "new_text", "old_text")}
    text = ", ".join(f"{k}={str(v)[:60]!r}" for k, v in shown.items())
    return f"{name}({text})"
