"""Line mode's drawing and questions: rich output on a plain terminal, no Textual.

Model text streams through a `rich.live.Live` Markdown view; every other event prints
one or a few lines. Questions stop the live view first so the prompt sits below it.
"""

from __future__ import annotations

from typing import assert_never

from prompt_toolkit import PromptSession
from rich.console import Console
from rich.live import Live
from rich.markdown import Markdown
from rich.syntax import Syntax
from rich.text import Text

from agent.approval import Action, ApprovalRequest, Decision, Verdict
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
    JobStarted,
    JobStopped,
    ModeChanged,
    ModelChanged,
    Notice,
    PhaseChanged,
    PlanUpdated,
    ReasoningDelta,
    RunStatus,
    SessionStarted,
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
    PLAN_MARKS,
    candidates_line,
    compacted_line,
    denied_line,
    escape_controls,
    hook_line,
    human_tokens,
    job_started_line,
    job_stopped_line,
    shape_line,
    subagent_finished_line,
    subagent_started_line,
)
from tui.formatting import (
    APPLY_HINT,
    call_head,
    call_result,
    finished_summary,
    tests_passed,
    tests_summary,
)
from tui.meter_state import MeterState

LEVEL_STYLES = {"info": "dim", "warning": "yellow", "error": "bold red", "success": "green"}


class LineRenderer:
    def __init__(self, console: Console, meter: MeterState) -> None:
        self.console = console
        self.meter = meter
        self._live: Live | None = None
        self._text = ""
        self._changed: tuple[str, ...] = ()  # the sandbox's changed paths, from FilesChanged

    def pause(self) -> None:
        """End the live Markdown view (it stays on screen as printed)."""
        if self._live is not None:
            self._live.stop()
            self._live = None
        self._text = ""

    def note(self, message: str, level: str = "info") -> None:
        self.pause()
        # A note may quote a tool's output or a hook's words: rich passes ESC through.
        self.console.print(Text(escape_controls(message), style=LEVEL_STYLES.get(level, "")))

    def show(self, event: Event) -> None:
        self.meter.apply(event)
        match event:
            case TextDelta():
                self._text += escape_controls(event.text)
                if self._live is None:
                    self._live = Live(
                        Markdown(self._text), console=self.console, refresh_per_second=10
                    )
                    self._live.start()
                else:
                    self._live.update(Markdown(self._text))
            case AssistantMessage():
                if event.reasoning.strip() and self._live is None:
                    self.note(f"(thought for {len(event.reasoning.split()):,} words)")
                if self._live is None and event.text.strip():
                    self.console.print(Markdown(escape_controls(event.text)))
                self.pause()
            case ToolCallStarted():
                self.note(f"▸ {call_head(event)}")
            case ToolCallFinished():
                self.note(f"  {call_result(event)}", "info" if event.ok else "warning")
            case TestsRan():
                self.note(tests_summary(event), "success" if tests_passed(event) else "error")
            case PlanUpdated():
                self.note("\n".join(f"{PLAN_MARKS[s.status]} {s.title}" for s in event.steps))
            case PhaseChanged():
                self.note(f"phase: {event.phase.value}")
            case TaskShaped():
                self.note(shape_line(event))
            case Notice():  # a BudgetWarning too
                self.note(event.message, event.level)
            case HookRan():
                allowed = event.outcome == HookOutcome.ALLOWED
                self.note(hook_line(event), "info" if allowed else "warning")
            case ActionDenied():
                self.note(denied_line(event), "warning")
            case Compacted():
                self.note(compacted_line(event))
            case CandidatesTried():
                self.note(candidates_line(event))
            case SubagentStarted():
                self.note(subagent_started_line(event))
            case SubagentFinished():
                ok = event.status in (RunStatus.DONE, RunStatus.ANSWERED)
                self.note(subagent_finished_line(event), "info" if ok else "warning")
            case JobStarted():
                self.note(job_started_line(event))
            case JobStopped():
                self.note(job_stopped_line(event))
            case Finished():
                done = event.status in (RunStatus.DONE, RunStatus.ANSWERED)
                self.note(finished_summary(event), "success" if done else "warning")
                if event.evidence:
                    self.note(event.evidence, "info" if done else "warning")
                if event.summary:
                    self.console.print(Markdown(escape_controls(event.summary)))
                if self._changed:
                    self.note(APPLY_HINT.format(n=len(self._changed)))
                self.note(self.meter_line())
            case FilesChanged():
                self._changed = event.paths
            case (
                SessionStarted() | ReasoningDelta() | ApprovalRequested() | ApprovalResolved()
                | WindowUsed() | UsageUpdated() | Checkpointed() | ModeChanged()
                | ModelChanged() | Applied() | TurnStarted()
            ):  # fmt: skip
                pass  # the meter's, the approver's or the command layer's to show
            case _:
                assert_never(event)

    def meter_line(self) -> str:
        m = self.meter
        u = m.usage
        return (
            f"{m.model} · {m.mode} · in {human_tokens(u.uncached_input)} · cached "
            f"{human_tokens(u.cached_input)} · out {human_tokens(m.output_tokens)} · "
            f"{m.cache_text()} · {m.cost_text()} · step {m.steps}"
        )


class LineApprover:
    """Prints the diff or the command, then asks at a prompt."""

    def __init__(self, renderer: LineRenderer) -> None:
        self.renderer = renderer
        self.prompt: PromptSession[str] = PromptSession()

    async def decide(self, request: ApprovalRequest) -> Decision:
        console = self.renderer.console
        self.renderer.pause()
        # What the model asks to run or write, shown as it is but for control characters.
        console.rule(Text(escape_controls(request.summary, one_line=True), style="bold"))
        if request.command:
            console.print(Text(f"$ {escape_controls(request.command)}", style="bold yellow"))
        if request.diff:
            diff = escape_controls(request.diff)
            console.print(Syntax(diff, "diff", theme="ansi_dark", word_wrap=True))
        while True:
            answer = (
                (await self.prompt.prompt_async("Approve? [y]es / [n]o / [a]lways this session: "))
                .strip()
                .lower()
            )
            if answer in ("y", "yes"):
                return Decision(Verdict.APPROVE)
            if answer in ("a", "always"):
                from tui.rule_offer import offer_in_line

                await offer_in_line(self.prompt.prompt_async, console.print, request)
                return Decision(Verdict.ALWAYS)
            if answer in ("n", "no") and request.action is Action.APPLY:
                return Decision(Verdict.REJECT)  # nothing goes back to the model: no reason
            if answer in ("n", "no"):
                reason = await self.prompt.prompt_async(
                    "Why not? (optional, goes back to the model): "
                )
                return Decision(Verdict.REJECT, reason.strip())
            console.print("Answer y, n or a.")
