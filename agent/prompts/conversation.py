"""The conversation of a session, built for prefix caching, and output truncation.

The request is: the system prompt (stable for the whole session), the tool schemas (fixed
order, sent alongside), then the history, which is only ever appended to. Nothing
volatile (times, counters) goes into the prefix, so every request after the first reuses
the server's cache of everything before the newest messages. The system message carries
`cache_breakpoint=True`: it is the end of the stable prefix (Anthropic `cache_control`).

Compaction (prompts/compaction.py, run/room.py) is the one exception to "append-only": when
the window fills, old outputs become stubs and older turns a summary, and the prefix is
stable again from there.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agent.llm.base import Message, ToolCall

TOOL_OUTPUT_CAP = 8000  # characters of one tool result the model sees


def truncate(text: str, cap: int = TOOL_OUTPUT_CAP) -> tuple[str, bool]:
    """Head and tail of `text` within `cap` characters; the middle is what gets dropped."""
    if len(text) <= cap:
        return text, False
    head = cap * 2 // 3
    tail = cap - head
    dropped = len(text) - head - tail
    middle = f"\n[... {dropped} characters left out ...]\n"
    return text[:head] + middle + text[-tail:], True


@dataclass(eq=False, repr=False)  # state, compared and shown by identity
class Conversation:
    """The messages of a session. Append-only, so the prompt prefix stays cacheable."""

    system: str
    history: list[Message] = field(default_factory=list)
    # The person's task and each later request, word for word: compaction keeps them.
    instructions: list[str] = field(default_factory=list)

    def messages(self) -> list[Message]:
        return [Message("system", self.system, cache_breakpoint=True), *self.history]

    def add_user(self, text: str) -> None:
        self.history.append(Message("user", text))

    def add_assistant(self, message: Message) -> None:
        self.history.append(message)

    def add_tool_result(self, call: ToolCall, output: str) -> None:
        text, _ = truncate(output)
        self.history.append(Message("tool", text, tool_call_id=call.id, name=call.name))

    def add_feedback(self, text: str) -> None:
        """kiln's own note (a test digest, a correction) after the latest tool results.

        Appended to the last tool result when there is one, so providers that need
        strict user/assistant alternation (Anthropic) see one user turn, not two.
        """
        if self.history and self.history[-1].role == "tool":
            last = self.history[-1]
            self.history[-1] = Message(
                "tool",
                last.content + "\n\n" + text,
                tool_call_id=last.tool_call_id,
                name=last.name,
            )
        elif self.history and self.history[-1].role == "user":
            last = self.history[-1]
            self.history[-1] = Message("user", last.content + "\n\n" + text)
        else:
            self.add_user(text)
