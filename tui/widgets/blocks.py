"""The pieces the transcript is made of: prompts, streamed replies, tool calls, test runs."""

from __future__ import annotations

import json
from typing import Any

from rich.text import Text
from textual.widgets import Collapsible, Markdown, Static
from textual.widgets.markdown import MarkdownStream

from agent.events import Finished, TestsRan, ToolCallFinished, ToolCallStarted

OUTPUT_LINES = 40  # a tool's output is cut to its last lines in the transcript


class UserPrompt(Static):
    def __init__(self, text: str) -> None:
        super().__init__(Text(text), classes="user-prompt")


class AssistantReply(Markdown):
    """Model text appended fragment by fragment through Textual's MarkdownStream."""

    def __init__(self, text: str = "") -> None:
        super().__init__(text, classes="assistant-reply")
        self._stream: MarkdownStream | None = None
        self.text_so_far = text

    async def write(self, fragment: str) -> None:
        if self._stream is None:
            self._stream = Markdown.get_stream(self)
        self.text_so_far += fragment
        await self._stream.write(fragment)

    async def finish(self) -> None:
        if self._stream is not None:
            await self._stream.stop()
            self._stream = None


def short_arguments(arguments: dict[str, Any], width: int = 60) -> str:
    """The one argument that says what a call does (a path or a command), shortened."""
    for key in ("path", "cmd", "command", "file", "pattern", "query"):
        value = arguments.get(key)
        if isinstance(value, str) and value:
            break
    else:
        value = next((v for v in arguments.values() if isinstance(v, str)), "")
    first_line = value.splitlines()[0] if value else ""
    return first_line if len(first_line) <= width else first_line[: width - 1] + "…"


def tail(output: str, lines: int = OUTPUT_LINES) -> str:
    rows = output.rstrip("\n").splitlines()
    if len(rows) <= lines:
        return "\n".join(rows)
    return f"… {len(rows) - lines} earlier lines not shown\n" + "\n".join(rows[-lines:])


class ToolCallBlock(Collapsible):
    """One tool call, collapsed to a line; expand for arguments and output."""

    def __init__(self, started: ToolCallStarted) -> None:
        self.started = started
        self._head = f"{started.name} {short_arguments(started.arguments)}".rstrip()
        arguments = json.dumps(started.arguments, indent=2, ensure_ascii=False)
        self._output = Static("", classes="tool-output")
        super().__init__(
            Static(Text(arguments), classes="tool-args"),
            self._output,
            title=f"{self._head} · running…",
            collapsed=True,
            classes="tool-call -running",
        )

    def finish(self, done: ToolCallFinished) -> None:
        status = "ok" if done.ok else "failed"
        exit_part = f" · exit {done.exit_code}" if done.exit_code is not None else ""
        recovered = " · recovered from text" if self.started.recovered_from_text else ""
        self.title = f"{self._head} · {status}{exit_part} · {done.duration_s:.1f}s{recovered}"
        self.remove_class("-running")
        self.add_class("-ok" if done.ok else "-failed")
        note = "\n(output truncated for the model)" if done.truncated else ""
        self._output.update(Text(tail(done.output) + note))


class TestRunBlock(Static):
    def __init__(self, ran: TestsRan) -> None:
        passed = ran.failed == 0 and ran.errors == 0 and ran.exit_code == 0
        lines = [
            f"tests: {ran.passed} passed, {ran.failed} failed"
            + (f", {ran.errors} errors" if ran.errors else "")
            + f" · {ran.duration_s:.1f}s · {ran.command}"
        ]
        lines += [f"  ✗ {name}" for name in ran.failing[:20]]
        if len(ran.failing) > 20:
            lines.append(f"  … and {len(ran.failing) - 20} more")
        super().__init__(
            Text("\n".join(lines)), classes="tests " + ("-passed" if passed else "-failed")
        )


class NoticeLine(Static):
    def __init__(self, message: str, level: str = "info") -> None:
        super().__init__(Text(message), classes=f"notice -{level}")


class FinishedLine(Static):
    def __init__(self, done: Finished) -> None:
        text = (
            f"{done.status}: {done.stop_reason.value.replace('_', ' ')} · {done.steps} steps · "
            f"{done.tool_calls} tool calls · ${done.cost_usd:.4f} · {done.duration_s:.1f}s"
        )
        if done.summary:
            text += f"\n{done.summary}"
        super().__init__(Text(text), classes=f"finished -{done.status}")
