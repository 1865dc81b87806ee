"""Prompt assembly, built for prefix caching, and output truncation for the model.

The request is: the system prompt (stable for the whole session), the tool schemas (fixed
order, sent alongside), then the history, which is only ever appended to. Nothing
volatile (times, counters) goes into the prefix, so every request after the first reuses
the server's cache of everything before the newest messages. The system message carries
`cache_breakpoint=True`: it is the end of the stable prefix (Anthropic `cache_control`).

Room is left for a repo map (appended to the stable prefix, `stable_extra`) and for
compaction (which would replace the oldest history with a summary); neither is built yet.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from agent.llm.base import Message, ToolCall

TOOL_OUTPUT_CAP = 8000  # characters of one tool result the model sees

SYSTEM_PROMPT = """\
You are kiln, a coding agent working in a git repository. You work on a sandboxed copy of
the repository: files you edit and commands you run never touch the person's machine
until they approve the final diff.

How to work:
1. Look before you change: list_files, search and read_file to find the relevant code.
2. For anything beyond a one-line fix, write a short plan with update_plan and keep it
   current (mark steps in_progress and done).
3. Make small, precise edits with edit_file (old_text copied exactly from read_file, with
   enough context to match once). Use write_file only for new files.
4. Run the tests with run_tests. After your edits kiln also runs them and shows you a
   digest; fix what fails.
5. When the task is done and the tests pass, call finish with a one-paragraph summary.
   If the request was only a question, answer it in the summary of finish.

Rules: paths are relative to the repository root. Do not touch .git. There is no network.
Do not ask the person questions mid-task; make reasonable choices and say so in finish.
Keep replies short: the tools do the work."""


# For small models (a few billion parameters): short, one call per reply, one worked
# example of the exact call format (the text protocol's "json" style). They copy what they
# see, so the example is an edit made from content already shown, not a guess.
SMALL_MODEL_PROMPT = """\
You are kiln, a coding agent. You fix code in a repository by calling tools. Every reply
of yours is exactly one tool call and nothing else; its result comes back in the next
message.

Rules:
- Never guess what a file contains: use the content shown to you, or read_file.
- Change code with edit_file: old_text is copied exactly from the file (without line
  numbers), new_text replaces it. Keep the change small.
- After each edit kiln runs the tests and shows you the result. Fix what still fails.
- When the tests pass, call finish with one sentence saying what you changed.

Example. The tests say `add(2, 3)` returned -1, and calc.py contains:
def add(a, b):
    return a - b
Your whole reply:
{"name": "edit_file", "arguments": {"path": "calc.py", "old_text": "    return a - b", \
"new_text": "    return a + b"}}"""


NUDGE = "Continue with a tool call. When the task is done, call finish with a short summary."
SMALL_MODEL_NUDGE = """\
That reply had no tool call, so nothing happened. Reply with exactly one tool call, like:
{call}"""


def nudge(small_model: bool, path: str = "") -> str:
    """What kiln says to a reply without a tool call.

    A small model copies the example literally, so it names a real file (`path`, one the
    failing tests point at) or lists the files.
    """
    if not small_model:
        return NUDGE
    args = {"path": path} if path else {}
    call = {"name": "read_file" if path else "list_files", "arguments": args}
    return SMALL_MODEL_NUDGE.format(call=json.dumps(call))


def system_prompt(
    repo_name: str, test_command: str, stable_extra: str = "", *, small_model: bool = False
) -> str:
    facts = [f"Repository: {repo_name}"]
    facts.append(
        f"Test command: `{test_command}`" if test_command else "Test command: none detected"
    )
    base = SMALL_MODEL_PROMPT if small_model else SYSTEM_PROMPT
    text = base + "\n\n" + "\n".join(facts)
    return text + ("\n\n" + stable_extra if stable_extra else "")


def truncate(text: str, cap: int = TOOL_OUTPUT_CAP) -> tuple[str, bool]:
    """Head and tail of `text` within `cap` characters; the middle is what gets dropped."""
    if len(text) <= cap:
        return text, False
    head = cap * 2 // 3
    tail = cap - head
    dropped = len(text) - head - tail
    middle = f"\n[... {dropped} characters left out ...]\n"
    return text[:head] + middle + text[-tail:], True


@dataclass
class Conversation:
    """The messages of a session. Append-only, so the prompt prefix stays cacheable."""

    system: str
    history: list[Message] = field(default_factory=list)

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
