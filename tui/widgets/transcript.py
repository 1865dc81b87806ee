"""The scrolling record of a session: what was asked, said, run and decided."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.containers import VerticalScroll
from textual.widget import Widget

from agent.events import (
    ActionDenied,
    ApprovalRequested,
    ApprovalResolved,
    AssistantMessage,
    CandidatesTried,
    Compacted,
    Event,
    FilesChanged,
    Finished,
    HookRan,
    Notice,
    TaskShaped,
    TestsRan,
    TextDelta,
    ToolCallFinished,
    ToolCallStarted,
)
from agent.present import candidates_line, compacted_line, denied_line, hook_line, shape_line
from tui.formatting import APPLY_HINT
from tui.widgets.blocks import (
    FinishedLine,
    NoticeLine,
    TestRunBlock,
    ToolCallBlock,
    UserPrompt,
)

if TYPE_CHECKING:
    from tui.widgets.reply import AssistantReply

# Blocks kept mounted: older ones leave the screen (they stay in the session's events and
# store) so a day-long session does not grow the app's memory without bound.
MAX_BLOCKS = 300

VERDICTS = {"approve": "approved", "reject": "rejected", "always": "always allowed"}


def _reply(text: str = "") -> AssistantReply:
    # Markdown (and markdown-it) load with the first reply, not before the first frame.
    from tui.widgets.reply import AssistantReply

    return AssistantReply(text)


class Transcript(VerticalScroll):
    """Stays pinned to the bottom while new content arrives, unless the person scrolls up."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._reply: AssistantReply | None = None
        self._calls: dict[str, ToolCallBlock] = {}
        self._questions: dict[str, str] = {}  # approval request id -> its summary
        self._changed: tuple[str, ...] = ()  # the sandbox's changed paths, from FilesChanged

    def on_mount(self) -> None:
        self.anchor()

    async def mount_block(self, block: Widget) -> None:
        await self.mount(block)
        excess = len(self.children) - MAX_BLOCKS
        if excess > 0:
            await self.remove_children(list(self.children[:excess]))

    async def add_user(self, text: str) -> None:
        await self._end_reply()
        await self.mount_block(UserPrompt(text))

    async def note(self, message: str, level: str = "info") -> None:
        await self._end_reply()
        await self.mount_block(NoticeLine(message, level))

    async def show(self, event: Event) -> None:
        """Render one event of the stream; events it does not draw are ignored."""
        if isinstance(event, TextDelta):
            if self._reply is None:
                self._reply = _reply()
                await self.mount_block(self._reply)
            await self._reply.write(event.text)
        elif isinstance(event, AssistantMessage):
            if self._reply is None and event.text.strip():
                await self.mount_block(_reply(event.text))  # replayed, or never streamed
            await self._end_reply()
        elif isinstance(event, ToolCallStarted):
            await self._end_reply()
            block = ToolCallBlock(event)
            self._calls[event.call_id] = block
            await self.mount_block(block)
        elif isinstance(event, ToolCallFinished):
            block_or_none = self._calls.pop(event.call_id, None)
            if block_or_none is not None:
                block_or_none.finish(event)
        elif isinstance(event, TestsRan):
            await self._end_reply()
            await self.mount_block(TestRunBlock(event))
        elif isinstance(event, ApprovalRequested):
            self._questions[event.request_id] = event.summary
        elif isinstance(event, ApprovalResolved):
            verdict = VERDICTS.get(event.decision, event.decision)
            what = self._questions.pop(event.request_id, "")
            reason = f" ({event.reason})" if event.reason else ""
            await self.note(f"{verdict}: {what}{reason}" if what else verdict + reason, "approval")
        elif isinstance(event, Notice):
            await self.note(event.message, event.level)
        elif isinstance(event, HookRan) and event.outcome != "allowed":
            await self.note(hook_line(event), "warning")
        elif isinstance(event, ActionDenied):
            await self.note(denied_line(event), "approval")
        elif isinstance(event, Compacted):
            await self.note(compacted_line(event))
        elif isinstance(event, TaskShaped):
            await self.note(shape_line(event))
        elif isinstance(event, CandidatesTried):
            await self.note(candidates_line(event), "success" if event.chosen else "info")
        elif isinstance(event, FilesChanged):
            self._changed = event.paths
        elif isinstance(event, Finished):
            await self._end_reply()
            await self.mount_block(FinishedLine(event))
            if self._changed:
                await self.mount_block(NoticeLine(APPLY_HINT.format(n=len(self._changed))))

    async def _end_reply(self) -> None:
        if self._reply is not None:
            reply, self._reply = self._reply, None
            await reply.finish()
