"""The transcript's record as data: one entry per block, its widget built only while the
block is near the viewport (`window.py`). An entry keeps what its widget would show, and
what the person did to it (a tool call expanded), so a block rebuilt later is the same."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text
from textual.widget import Widget

from tui.formatting import call_head, finished_summary, tests_summary
from tui.widgets.blocks import FinishedLine, NoticeLine, TestRunBlock, UserPrompt

if TYPE_CHECKING:
    from agent.events import (
        Finished,
        SubagentFinished,
        TestsRan,
        ToolCallFinished,
        ToolCallStarted,
    )
    from tui.widgets.reply import AssistantReply
    from tui.widgets.tool_call import ToolCallBlock


class Entry:
    """One block of the transcript; `widget` is set while it is mounted."""

    def __init__(self) -> None:
        self.widget: Widget | None = None

    def build(self) -> Widget:
        raise NotImplementedError

    def text(self) -> str:
        """What a search looks in."""
        raise NotImplementedError

    def rows(self, width: int) -> int:
        """About how many rows the block takes `width` cells wide, before it is built: its
        text's lines, wrapped (enough to tell how many blocks fill a screen)."""
        lines = self.text().splitlines() or [""]
        return sum(max(1, -(-cell_len(line) // max(width, 1))) for line in lines)


class UserEntry(Entry):
    def __init__(self, said: str) -> None:
        super().__init__()
        self.said = said

    def build(self) -> Widget:
        return UserPrompt(self.said)

    def text(self) -> str:
        return self.said


class NoticeEntry(Entry):
    def __init__(self, message: str, level: str = "info") -> None:
        super().__init__()
        self.message, self.level = message, level

    def build(self) -> Widget:
        return NoticeLine(self.message, self.level)

    def text(self) -> str:
        return self.message


class ReplyEntry(Entry):
    """A model reply: streamed into its widget while mounted, kept whole here either way."""

    def __init__(self, said: str = "") -> None:
        super().__init__()
        self.said = said

    def build(self) -> Widget:
        # Markdown (and markdown-it) load with the first reply, not before the first frame.
        from tui.widgets.reply import AssistantReply

        return AssistantReply(self.said)

    @property
    def reply(self) -> AssistantReply | None:
        return self.widget  # type: ignore[return-value]  # build() makes an AssistantReply

    async def write(self, fragment: str) -> None:
        self.said += fragment
        if self.reply is not None:
            await self.reply.write(fragment)

    async def finish(self) -> None:
        if self.reply is not None:
            await self.reply.finish()

    def text(self) -> str:
        return self.said


class ThinkingEntry(Entry):
    """A thinking model's reasoning before its reply: collapsed, as the person left it."""

    def __init__(self, said: str = "") -> None:
        super().__init__()
        self.said = said
        self.collapsed = True

    def build(self) -> Widget:
        from tui.widgets.thinking import ThinkingBlock  # with the first reasoning

        return ThinkingBlock(self.said, collapsed=self.collapsed)

    def write(self, fragment: str) -> None:
        self.said += fragment
        if self.widget is not None:
            self.widget.write(self.said)  # type: ignore[attr-defined]  # a ThinkingBlock

    def rows(self, width: int) -> int:
        return 1 if self.collapsed else super().rows(width)

    def text(self) -> str:
        return self.said


class ToolEntry(Entry):
    def __init__(self, started: ToolCallStarted) -> None:
        super().__init__()
        self.started = started
        self.done: ToolCallFinished | None = None
        self.collapsed = True

    def build(self) -> Widget:
        # A Collapsible: loaded with the first tool call, not before the first frame.
        from tui.widgets.tool_call import ToolCallBlock

        block = ToolCallBlock(self.started, collapsed=self.collapsed)
        if self.done is not None:
            block.finish(self.done)
        return block

    def finish(self, done: ToolCallFinished) -> None:
        self.done = done
        if self.block is not None:
            self.block.finish(done)

    @property
    def block(self) -> ToolCallBlock | None:
        return self.widget  # type: ignore[return-value]  # build() makes a ToolCallBlock

    def rows(self, width: int) -> int:
        return 1 if self.collapsed else super().rows(width)  # collapsed: its title line

    def text(self) -> str:
        arguments = json.dumps(self.started.arguments, ensure_ascii=False)
        return "\n".join(
            [call_head(self.started), arguments, self.done.output if self.done else ""]
        )


class TestsEntry(Entry):
    def __init__(self, ran: TestsRan) -> None:
        super().__init__()
        self.ran = ran

    def build(self) -> Widget:
        return TestRunBlock(self.ran)

    def text(self) -> str:
        return tests_summary(self.ran)


class FinishedEntry(Entry):
    def __init__(self, done: Finished) -> None:
        super().__init__()
        self.done = done

    def build(self) -> Widget:
        return FinishedLine(self.done)

    def text(self) -> str:
        return f"{finished_summary(self.done)}\n{self.done.summary}"


class SubagentEntry(Entry):
    """A child's end: one collapsed line (who, how it ended, what it spent), its report
    inside, as the parent model read it."""

    def __init__(self, done: SubagentFinished) -> None:
        super().__init__()
        self.done = done

    def build(self) -> Widget:
        from textual.widgets import Collapsible, Static  # loaded with the first child

        from agent.present import subagent_finished_line

        report = Static(Text(self.done.summary or "(no report)"), classes="tool-output")
        return Collapsible(
            report, title=subagent_finished_line(self.done), collapsed=True, classes="subagent"
        )

    def rows(self, width: int) -> int:
        return 1  # collapsed: its title line

    def text(self) -> str:
        return f"{self.done.name} {self.done.agent_id}\n{self.done.summary}"
