"""The points of a session where hooks run, besides the tools' (which `tools.call` runs
through `ToolContext.hooks`): each is one call from the Session, its answer returned.

What blocking means at each: UserPromptSubmit ends the request before the model sees it
(`StopReason.HOOK_BLOCKED`); BeforeApply refuses the apply, BeforeCommit the commit. What
a SessionStart or UserPromptSubmit hook adds goes to the model with the request's first
message. A SessionStart hook, a Stop hook after a run that ended without `finish` (at
`finish` the loop runs them: `run/checks.py`) and an AfterApply hook cannot undo what
happened: their objection is shown.
"""

from __future__ import annotations

from pathlib import Path

from agent.errors import KilnError
from agent.events import Finished, HookEvent, Level, Notice, RunStatus, StopReason
from agent.hooks.runner import Emit, HookRunner, Outcome
from agent.present import changed_paths


def _objection(event: HookEvent, outcome: Outcome, emit: Emit) -> None:
    if outcome.blocked:
        emit(Notice(f"A {event.value} hook objected: {outcome.reason}", Level.WARNING))
    elif outcome.context:
        emit(Notice(f"{event.value} hook: {outcome.context}"))


async def session_started(hooks: HookRunner, emit: Emit) -> str:
    """The context the SessionStart hooks add, for the model's first request ("" if none)."""
    outcome = await hooks.simple(HookEvent.SESSION_START, emit, source="startup")
    _objection(HookEvent.SESSION_START, outcome, emit)
    return "" if outcome.blocked else outcome.context


async def prompt_submitted(hooks: HookRunner, prompt: str, emit: Emit) -> str | None:
    """None when a UserPromptSubmit hook blocked the request (its Finished is emitted);
    else the context the hooks add for the model ("" if none)."""
    outcome = await hooks.prompt_submitted(prompt, emit)
    if not outcome.blocked:
        if outcome.context:
            emit(Notice(f"UserPromptSubmit hook: {outcome.context}"))
        return outcome.context
    said = f"A UserPromptSubmit hook blocked the request: {outcome.reason}"
    emit(Finished(RunStatus.ERROR, StopReason.HOOK_BLOCKED, said))
    return None


def with_hook_context(message: str, context: str) -> str:
    """A request's first message with what the person's hooks added, as Claude Code adds
    it: after the person's words, named as the hooks'."""
    if not context.strip():
        return message
    return f"{message}\n\nContext added by the person's hooks:\n{context.strip()}"


async def run_stopped(hooks: HookRunner, emit: Emit) -> None:
    """The Stop hooks of a run that ended without `finish` (a limit, an answer in text):
    shown when they object. At `finish` they run in the loop, where one that blocks makes
    the model go on (`run/checks.py`)."""
    outcome = await hooks.simple(HookEvent.STOP, emit, stop_hook_active=False)
    _objection(HookEvent.STOP, outcome, emit)


async def apply_blocked(hooks: HookRunner, diff: str, emit: Emit) -> str | None:
    """None: the apply may go on (to its approval); otherwise why not."""
    files = changed_paths(diff)
    outcome = await hooks.simple(HookEvent.BEFORE_APPLY, emit, files=files, diff=diff)
    if not outcome.blocked:
        return None
    said = f"A BeforeApply hook blocked the apply: {outcome.reason}"
    emit(Notice(said, Level.ERROR))
    return said


async def applied(hooks: HookRunner, paths: list[str], emit: Emit) -> None:
    outcome = await hooks.simple(HookEvent.AFTER_APPLY, emit, files=paths)
    _objection(HookEvent.AFTER_APPLY, outcome, emit)


async def commit_allowed(hooks: HookRunner, repo: Path, emit: Emit) -> None:
    """Raises KilnError (one sentence) when a BeforeCommit hook blocks the commit."""
    outcome = await hooks.simple(HookEvent.BEFORE_COMMIT, emit, repo=str(repo))
    if outcome.blocked:
        raise KilnError(f"A BeforeCommit hook blocked the commit: {outcome.reason}")
