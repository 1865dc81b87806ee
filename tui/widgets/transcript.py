"""The scrolling record of a session: what was asked, said, run and decided."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, assert_never

from agent.event_values import HookOutcome
from agent.present import (
    candidates_line,
    compacted_line,
    denied_line,
    hook_line,
    job_started_line,
    job_stopped_line,
    shape_line,
    subagent_started_line,
)
from tui.formatting import APPLY_HINT
from tui.widgets.entries import (
    Entry,
    FinishedEntry,
    NoticeEntry,
    ReplyEntry,
    SubagentEntry,
    TestsEntry,
    ThinkingEntry,
    ToolEntry,
    UserEntry,
)
from tui.widgets.window import WindowedLog

if TYPE_CHECKING:
    from agent.events import Event

VERDICTS = {"approve": "approved", "reject": "rejected", "always": "always allowed"}


class Transcript(WindowedLog):
    """Each event of the stream as an entry; only the entries near the view are widgets
    (`window.py`), so a day-long session costs its data, not its widgets."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._reply: ReplyEntry | None = None
        self._thinking: ThinkingEntry | None = None  # the reasoning streaming now
        self._calls: dict[str, ToolEntry] = {}
        self._questions: dict[str, str] = {}  # approval request id -> its summary
        self._changed: tuple[str, ...] = ()  # the sandbox's changed paths, from FilesChanged
        self._replayed: list[Entry] | None = None  # set while replay() collects entries

    async def add(self, entry: Entry) -> None:
        if self._replayed is not None:
            self._replayed.append(entry)
        else:
            await self.append(entry)

    async def add_user(self, text: str) -> None:
        await self._end_reply()
        await self.add(UserEntry(text))

    async def note(self, message: str, level: str = "info") -> None:
        await self._end_reply()
        await self.add(NoticeEntry(message, level))

    async def replay(self, events: Iterable[Event]) -> None:
        """A stored session's events: all kept as entries, only the last screen mounted
        (the rest as the person scrolls up)."""
        self._replayed = []
        try:
            for event in events:
                await self.show(event)
            await self._end_reply()
            replayed = self._replayed
        finally:
            self._replayed = None
        await self.extend(replayed)

    async def replay_before(self, events: Iterable[Event]) -> None:
        """The events before those replayed (a resumed session's tail was drawn first):
        kept as entries above, never mounted until the person scrolls up to them."""
        state = self._reply, self._thinking, self._calls, self._questions, self._changed
        self._reply, self._thinking, self._calls, self._questions = None, None, {}, {}
        self._replayed = []
        try:
            for event in events:
                await self.show(event)
            await self._end_reply()
            earlier = self._replayed
        finally:
            self._replayed = None
            self._reply, self._thinking, self._calls, self._questions, self._changed = state
        await self.prepend(earlier)

    async def show(self, event: Event) -> None:
        """Render one event of the stream; each event it does not draw is named below."""
        import agent.events as ev  # loaded by now; the first frame is drawn without them

        match event:
            case ev.ReasoningDelta():
                if self._thinking is None:
                    await self._end_reply()
                    self._thinking = ThinkingEntry()
                    await self.add(self._thinking)
                self._thinking.write(event.text)
            case ev.TextDelta():
                self._thinking = None
                if self._reply is None:
                    self._reply = ReplyEntry()
                    await self.add(self._reply)
                await self._reply.write(event.text)
            case ev.AssistantMessage():
                streamed, self._thinking = self._thinking is not None, None
                if event.reasoning.strip() and self._reply is None and not streamed:
                    await self.add(ThinkingEntry(event.reasoning))  # replayed
                if self._reply is None and event.text.strip():
                    await self.add(ReplyEntry(event.text))  # replayed, or never streamed
                await self._end_reply()
            case ev.ToolCallStarted():
                await self._end_reply()
                call = ToolEntry(event)
                self._calls[event.call_id] = call
                await self.add(call)
            case ev.ToolCallFinished():
                call_or_none = self._calls.pop(event.call_id, None)
                if call_or_none is not None:
                    call_or_none.finish(event)
            case ev.TestsRan():
                await self._end_reply()
                await self.add(TestsEntry(event))
            case ev.ApprovalRequested():
                self._questions[event.request_id] = event.summary
            case ev.ApprovalResolved():
                verdict = VERDICTS.get(event.decision, event.decision)
                what = self._questions.pop(event.request_id, "")
                reason = f" ({event.reason})" if event.reason else ""
                said = f"{verdict}: {what}{reason}" if what else f"{verdict}{reason}"
                await self.note(said, "approval")
            case ev.Notice():  # a BudgetWarning too
                await self.note(event.message, event.level)
            case ev.HookRan():
                if event.outcome != HookOutcome.ALLOWED:  # an allowed run is not drawn
                    await self.note(hook_line(event), "warning")
            case ev.ActionDenied():
                await self.note(denied_line(event), "approval")
            case ev.Compacted():
                await self.note(compacted_line(event))
            case ev.TaskShaped():
                await self.note(shape_line(event))
            case ev.CandidatesTried():
                await self.note(candidates_line(event), "success" if event.chosen else "info")
            case ev.SubagentStarted():
                await self._end_reply()
                await self.note(subagent_started_line(event))
            case ev.SubagentFinished():
                await self.add(SubagentEntry(event))
            case ev.JobStarted():
                await self.note(job_started_line(event))
            case ev.JobStopped():
                await self.note(job_stopped_line(event))
            case ev.FilesChanged():
                self._changed = event.paths
            case ev.Finished():
                await self._end_reply()
                await self.add(FinishedEntry(event))
                if self._changed:
                    await self.add(NoticeEntry(APPLY_HINT.format(n=len(self._changed))))
            case (
                ev.SessionStarted() | ev.PhaseChanged() | ev.TurnStarted()
                | ev.PlanUpdated() | ev.WindowUsed() | ev.UsageUpdated() | ev.Checkpointed()
                | ev.ModeChanged() | ev.ModelChanged() | ev.Applied()
            ):  # fmt: skip
                pass  # the meter's, the side panel's or the command layer's to show
            case _:
                assert_never(event)

    async def _end_reply(self) -> None:
        if self._reply is not None:
            reply, self._reply = self._reply, None
            await reply.finish()
