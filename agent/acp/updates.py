"""kiln's events as ACP `session/update`s: one translator per session, fed in order.

Text and reasoning stream as message and thought chunks; each tool call is a `tool_call`
(pending) then `tool_call_update`s (in_progress once it may run, then completed or failed),
edits carrying their diff; the plan is a `plan`; usage and cost are a `usage_update`.
"""

from __future__ import annotations

from typing import Any, assert_never

from acp import (
    plan_entry,
    start_tool_call,
    text_block,
    tool_content,
    tool_diff_content,
    update_agent_message_text,
    update_agent_thought_text,
    update_plan,
    update_tool_call,
)
from acp.schema import Cost, PlanEntryStatus, ToolCallLocation, ToolKind, UsageUpdate

from agent.approval import Verdict
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
    JobEnd,
    JobStarted,
    JobStopped,
    ModeChanged,
    ModelChanged,
    Notice,
    PhaseChanged,
    PlanStatus,
    PlanUpdated,
    ReasoningDelta,
    RunStatus,
    SessionStarted,
    StopReason,
    SubagentFinished,
    SubagentStarted,
    TaskShaped,
    TestsRan,
    TextDelta,
    ToolCallFinished,
    ToolCallStarted,
    TurnStarted,
    UsageUpdated,
    WindowUsed,
)
from agent.present import (
    candidates_line,
    compacted_line,
    denied_line,
    hook_line,
    job_stopped_line,
    shape_line,
    short_arguments,
    short_command,
    subagent_finished_line,
)

KINDS: dict[str, ToolKind] = {
    "read_file": "read",
    "list_files": "read",
    "find_symbol": "search",
    "search": "search",
    "edit_file": "edit",
    "write_file": "edit",
    "run": "execute",
    "run_tests": "execute",
    "update_plan": "think",
}
PLAN_STATUS: dict[PlanStatus, PlanEntryStatus] = {
    PlanStatus.PENDING: "pending",
    PlanStatus.IN_PROGRESS: "in_progress",
    PlanStatus.DONE: "completed",
}
OUTPUT_SHOWN = 4000  # characters of a tool's output shown in the client; the model saw all


def stop_reason(reason: StopReason) -> str:
    """ACP's five stop reasons; kiln's others end the turn (their sentence is said first)."""
    if reason is StopReason.CANCELLED:
        return "cancelled"
    if reason in (StopReason.MAX_STEPS, StopReason.MAX_TOOL_CALLS):
        return "max_turn_requests"
    if reason is StopReason.TOKEN_BUDGET:
        return "max_tokens"
    return "end_turn"


def tool_title(name: str, arguments: dict[str, Any]) -> str:
    return f"{name} {short_arguments(arguments)}".strip()


class Translator:
    def __init__(self, repo: str) -> None:
        self.repo = repo
        self._running: set[str] = set()  # calls already reported in_progress
        self._open: list[str] = []  # calls started and not finished, in order
        self._after_run_tests = False
        self._tests = 0
        self.window = (0, 0)  # tokens in context, window size

    def updates(self, event: Event) -> list[Any]:
        after_run_tests, self._after_run_tests = self._after_run_tests, False
        match event:
            case TextDelta():
                return [update_agent_message_text(event.text)]
            case ReasoningDelta():
                return [update_agent_thought_text(event.text)]
            case ToolCallStarted():
                self._open.append(event.call_id)
                return [self._started(event)]
            case ApprovalResolved():
                if not self._open:
                    return []
                if event.decision == Verdict.REJECT:  # it never runs: failed when it ends
                    self._running.add(self._open[-1])
                    return []
                return self._in_progress(self._open[-1])
            case ToolCallFinished():
                self._after_run_tests = event.name == "run_tests"
                return self._finished(event)
            case PlanUpdated():
                entries = (plan_entry(s.title, status=PLAN_STATUS[s.status]) for s in event.steps)
                return [update_plan(entries)]
            case TestsRan():
                return [] if after_run_tests else self._tests_ran(event)
            case WindowUsed():
                self.window = (event.tokens, event.window)
                return []
            case UsageUpdated():
                return [] if event.estimated else [self.usage(event.cost_usd)]
            case Compacted():
                return [update_agent_thought_text(compacted_line(event) + "\n")]
            case CandidatesTried():
                return [update_agent_thought_text(candidates_line(event) + "\n")]
            case TaskShaped():
                return [update_agent_thought_text(shape_line(event) + "\n")]
            case Notice():  # a BudgetWarning too
                return [say(event.message, event.level)]
            case ActionDenied():  # its tool call fails when it ends
                return [say(denied_line(event), "warning")]
            case HookRan():  # as in the TUI: a hook that allowed goes unsaid
                allowed = event.outcome == HookOutcome.ALLOWED
                return [] if allowed else [say(hook_line(event), "warning")]
            case SubagentStarted():  # a child is a tool call of its own while it runs
                title = f"agent {event.name}: {' '.join(event.task.split())[:80]}"
                kind: ToolKind = "search" if event.read_only else "other"
                return [start_tool_call(event.agent_id, title, kind=kind, status="in_progress")]
            case SubagentFinished():
                ok = event.status in (RunStatus.DONE, RunStatus.ANSWERED)
                report = event.summary or subagent_finished_line(event)
                return [
                    update_tool_call(
                        event.agent_id,
                        status="completed" if ok else "failed",
                        content=[tool_content(text_block(report[:OUTPUT_SHOWN]))],
                    )
                ]
            case JobStarted():  # a job is a tool call of its own while it runs
                title = f"job {event.job_id}: {short_command(event.command)}"
                return [
                    start_tool_call(
                        f"job-{event.job_id}", title, kind="execute", status="in_progress"
                    )
                ]
            case JobStopped():
                text = f"{job_stopped_line(event)}\n{event.last_lines}".rstrip()
                return [
                    update_tool_call(
                        f"job-{event.job_id}",
                        status="completed" if event.ended is not JobEnd.LOST else "failed",
                        content=[tool_content(text_block(text[-OUTPUT_SHOWN:]))],
                    )
                ]
            case Finished():
                # calls the stop interrupted (Esc, a limit) never finished: say so, not "pending"
                closing = [update_tool_call(c, status="failed") for c in self._open]
                self._open.clear()
                if event.stop_reason is not StopReason.DONE:
                    closing.append(say(event.summary or event.status, "warning"))
                elif event.status is RunStatus.UNVERIFIED:
                    closing.append(say(f"Unverified: {event.evidence}", "warning"))
                return closing
            case (
                SessionStarted() | PhaseChanged() | TurnStarted() | AssistantMessage()
                | ApprovalRequested() | FilesChanged() | Checkpointed() | ModeChanged()
                | ModelChanged() | Applied()
            ):  # fmt: skip
                return []  # the permission request and the apply are server.py's to send
            case _:
                assert_never(event)

    def current_call(self) -> str | None:
        """The tool call in flight: the one an approval asked now is about."""
        return self._open[-1] if self._open else None

    def usage(self, cost_usd: float | None) -> UsageUpdate:
        used, size = self.window
        cost = Cost(amount=cost_usd, currency="USD") if cost_usd is not None else None
        return UsageUpdate(session_update="usage_update", used=used, size=size, cost=cost)

    def _started(self, event: ToolCallStarted) -> Any:
        args = event.arguments
        path = args.get("path") if isinstance(args.get("path"), str) else None
        content = None
        if event.name == "edit_file" and path:
            old, new = str(args.get("old_text", "")), str(args.get("new_text", ""))
            content = [tool_diff_content(self._absolute(path), new, old)]
        elif event.name == "write_file" and path:
            content = [tool_diff_content(self._absolute(path), str(args.get("content", "")))]
        return start_tool_call(
            event.call_id,
            tool_title(event.name, args),
            kind=KINDS.get(event.name, "other"),
            status="pending",
            content=content,
            locations=[ToolCallLocation(path=self._absolute(path))] if path else None,
            raw_input=args,
        )

    def _in_progress(self, call_id: str) -> list[Any]:
        if call_id in self._running:
            return []
        self._running.add(call_id)
        return [update_tool_call(call_id, status="in_progress")]

    def _finished(self, event: ToolCallFinished) -> list[Any]:
        updates = self._in_progress(event.call_id)
        if event.call_id in self._open:
            self._open.remove(event.call_id)
        shown = (
            event.output if len(event.output) <= OUTPUT_SHOWN else event.output[:OUTPUT_SHOWN] + "…"
        )
        done = update_tool_call(
            event.call_id,
            status="completed" if event.ok else "failed",
            raw_output={"ok": event.ok, "exit_code": event.exit_code, "output": shown},
        )
        if event.name not in ("edit_file", "write_file"):  # an edit keeps showing its diff
            done.content = [tool_content(text_block(shown))] if shown else None
        return [*updates, done]

    def _tests_ran(self, event: TestsRan) -> list[Any]:
        """kiln's own test run after edits: a tool call of its own, already finished."""
        self._tests += 1
        call_id = f"kiln-tests-{self._tests}"
        ok = event.exit_code == 0 and not event.failed and not event.errors
        said = f"{event.passed} passed, {event.failed} failed, {event.errors} errors"
        return [
            start_tool_call(
                call_id, f"run the tests: {event.command}", kind="execute", status="in_progress"
            ),
            update_tool_call(
                call_id,
                status="completed" if ok else "failed",
                content=[tool_content(text_block(event.digest or said))],
            ),
        ]

    def _absolute(self, path: str) -> str:
        return f"{self.repo.rstrip('/')}/{path.removeprefix('./')}"


def say(text: str, level: str = "info") -> Any:
    """A note from kiln (not the model) in the conversation."""
    mark = "" if level in ("info", "success") else f"**{level}:** "
    return update_agent_message_text(f"\n\n{mark}{text}\n\n")
