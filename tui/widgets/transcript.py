"""The scrolling record of a session: what was asked, said, run and decided."""

from __future__ import annotations

from typing import TYPE_CHECKING, assert_never

from textual.containers import VerticalScroll
from textual.widget import Widget

from agent.events import (
    ActionDenied,
    Applied,
    ApprovalRequested,
    ApprovalResolved,
    AssistantMessage,
    CandidatesTried,
    Checkpointed,
    Compacted,
    Event,
    FilesChanged,
    Finished,
    HookOutcome,
    HookRan,
    ModeChanged,
    ModelChanged,
    Notice,
    PhaseChanged,
    PlanUpdated,
    ReasoningDelta,
    SessionStarted,
    TaskShaped,
    TestsRan,
    TextDelta,
    ToolCallFinished,
    ToolCallStarted,
    TurnStarted,
    UsageUpdated,
    WindowUsed,
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
        """Render one event of the stream; each event it does not draw is named below."""
        match event:
            case TextDelta():
                if self._reply is None:
                    self._reply = _reply()
                    await self.mount_block(self._reply)
                await self._reply.write(event.text)
            case AssistantMessage():
                if self._reply is None and event.text.strip():
                    await self.mount_block(_reply(event.text))  # replayed, or never streamed
                await self._end_reply()
            case ToolCallStarted():
                await self._end_reply()
                block = ToolCallBlock(event)
                self._calls[event.call_id] = block
                await self.mount_block(block)
            case ToolCallFinished():
                block_or_none = self._calls.pop(event.call_id, None)
                if block_or_none is not None:
                    block_or_none.finish(event)
            case TestsRan():
                await self._end_reply()
                await self.mount_block(TestRunBlock(event))
            case ApprovalRequested():
                self._questions[event.request_id] = event.summary
            case ApprovalResolved():
                verdict = VERDICTS.get(event.decision, event.decision)
                what = self._questions.pop(event.request_id, "")
                reason = f" ({event.reason})" if event.reason else ""
                said = f"{verdict}: {what}{reason}" if what else f"{verdict}{reason}"
                await self.note(said, "approval")
            case Notice():  # a BudgetWarning too
                await self.note(event.message, event.level)
            case HookRan():
                if event.outcome != HookOutcome.ALLOWED:  # an allowed run is not drawn
                    await self.note(hook_line(event), "warning")
            case ActionDenied():
                await self.note(denied_line(event), "approval")
            case Compacted():
                await self.note(compacted_line(event))
            case TaskShaped():
                await self.note(shape_line(event))
            case CandidatesTried():
                await self.note(candidates_line(event), "success" if event.chosen else "info")
            case FilesChanged():
                self._changed = event.paths
            case Finished():
                await self._end_reply()
                await self.mount_block(FinishedLine(event))
                if self._changed:
                    await self.mount_block(NoticeLine(APPLY_HINT.format(n=len(self._changed))))
            case (
                SessionStarted() | PhaseChanged() | TurnStarted() | ReasoningDelta()
                | PlanUpdated() | WindowUsed() | UsageUpdated() | Checkpointed()
                | ModeChanged() | ModelChanged() | Applied()
            ):  # fmt: skip
                pass  # the meter's, the side panel's or the command layer's to show
            case _:
                assert_never(event)

    async def _end_reply(self) -> None:
        if self._reply is not None:
            reply, self._reply = self._reply, None
            await reply.finish()
