"""The multi-line prompt: Enter sends, Shift+Enter or Ctrl+J adds a line, Up/Down browse
history, and a slash command completes inline (Tab or Right accepts)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.message import Message
from textual.widgets import TextArea

from tui.history import PromptHistory

if TYPE_CHECKING:
    from agent.commands import SlashCommand

NEWLINE_KEYS = ("shift+enter", "ctrl+j", "alt+enter")


class PromptInput(TextArea):
    class Submitted(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class CompletionsChanged(Message):
        def __init__(self, matches: list[SlashCommand]) -> None:
            super().__init__()
            self.matches = matches

    def __init__(self, history: PromptHistory, **kwargs: object) -> None:
        super().__init__(
            soft_wrap=True,
            show_line_numbers=False,
            tab_behavior="focus",
            compact=True,
            placeholder="Say what you want, or / for commands · Enter sends · Ctrl+J new line",
            **kwargs,  # type: ignore[arg-type]
        )
        self.prompt_history = history

    def update_suggestion(self) -> None:
        # The command layer loads with the first text typed, not with the first frame.
        from agent import commands

        own = getattr(self.app, "commands", None)  # the app's, with the custom commands
        matches = (
            own.completions(self.text)
            if isinstance(own, commands.Commands)
            else commands.completions(self.text)
        )
        typed = len(self.text) - 1
        self.suggestion = matches[0].name[typed:] if matches and typed >= 0 else ""
        self.post_message(self.CompletionsChanged(matches))

    async def _on_key(self, event: events.Key) -> None:
        key = event.key
        if key == "enter":
            self._stop(event)
            text = self.text
            if text.strip():
                self.prompt_history.add(text)
                self.clear()
                self.post_message(self.Submitted(text))
        elif key in NEWLINE_KEYS:
            self._stop(event)
            self.insert("\n")
        elif key == "tab" and self.suggestion:
            self._stop(event)
            self.insert(self.suggestion + " ")
        elif key == "up" and self.cursor_location[0] == 0:
            self._stop(event)
            self._recall(self.prompt_history.previous())
        elif key == "down" and self.cursor_location[0] == self.document.line_count - 1:
            self._stop(event)
            self._recall(self.prompt_history.next())
        else:
            await super()._on_key(event)

    @staticmethod
    def _stop(event: events.Key) -> None:
        event.stop()
        event.prevent_default()

    def _recall(self, entry: str | None) -> None:
        if entry is None:
            return
        self.load_text(entry)
        self.move_cursor(self.document.end)
