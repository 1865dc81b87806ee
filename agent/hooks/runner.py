"""Running hooks: one process per hook (on the host for the person's own, in the session's
sandbox for a repository's: `execute.py`), JSON on stdin, the answer by exit code.

- exit 0: go ahead. Its stdout may be JSON in Claude Code's shape: `{"decision": "block",
  "reason": ...}`, `{"continue": false, "stopReason": ...}` or `{"hookSpecificOutput":
  {"permissionDecision": "deny", "permissionDecisionReason": ..., "additionalContext":
  ...}}` block; `additionalContext` (and, for UserPromptSubmit and SessionStart, plain
  stdout) is added for the model.
- exit 2: blocked; the hook's stderr is the reason, shown to the model.
- anything else (another exit code, killed by a signal, not started, over its timeout,
  more output than kiln reads): blocked as well, and the sentence says the hook failed.
  Claude Code lets the action through here; a guard that breaks would then guard nothing.

The output is read whole (up to `execute.OUTPUT_LIMIT`) and parsed whole, so a deny of any
length denies; only what is shown (the reason, the context) is cut.

Every run is a `HookRan` event: in the stream, the store and every front end.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent.events import Event, HookEvent, HookOutcome, HookRan
from agent.hooks.config import Hook
from sandbox.base import Sandbox
from sandbox.frozen import frozen

if TYPE_CHECKING:
    from agent.hooks import execute

Emit = Callable[[Event], None]
_TAIL = 2000  # characters of a tool's output a PostToolUse hook gets, and of a reason shown
_CONTEXT = 10_000  # characters of what hooks add for the model


@frozen
class Outcome:
    """What the hooks of an event said: whether they blocked, why, and context for the model."""

    blocked: bool = False
    reason: str = ""  # why it was blocked, for the model or the person
    context: str = ""  # what the hooks added for the model


ALLOWED = Outcome()


class HookRunner:
    """The session's hooks; `bool()` is false when there are none (then nothing is run)."""

    def __init__(
        self, hooks: tuple[Hook, ...], repo: Path, session_id: str, env: Mapping[str, str]
    ) -> None:
        self.hooks = hooks
        self.repo = repo
        self.session_id = session_id
        self.env = {**env, **self._own_env(str(repo))}
        # The session's, once started: where a repository's hooks run.
        self.sandbox: Sandbox | None = None

    def _own_env(self, project_dir: str) -> dict[str, str]:
        return {
            "KILN_PROJECT_DIR": project_dir,
            "CLAUDE_PROJECT_DIR": project_dir,
            "KILN_SESSION_ID": self.session_id,
        }

    def __bool__(self) -> bool:
        return bool(self.hooks)

    async def fire(
        self, event: HookEvent, payload: dict[str, Any], emit: Emit, tool: str = ""
    ) -> Outcome:
        """Run the hooks of `event` (those whose matcher takes `tool`) in order; the first
        that blocks ends it."""
        context: list[str] = []
        for hook in (h for h in self.hooks if h.event is event and h.matches(tool)):
            outcome = await self._run(hook, payload, emit, tool)
            if outcome.context:
                context.append(outcome.context)
            if outcome.blocked:
                return Outcome(True, outcome.reason, "\n".join(context))
        return Outcome(False, "", "\n".join(context))

    def _payload(self, hook: Hook, fields: dict[str, Any], workspace: str) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "hook_event_name": hook.event.value,
            "cwd": workspace if hook.in_sandbox else str(self.repo),
            "transcript_path": "",
            **fields,
        }

    async def _run(self, hook: Hook, payload: dict[str, Any], emit: Emit, tool: str) -> Outcome:
        from agent.hooks import execute  # here: a session without hooks never runs one

        started = time.monotonic()
        stdin = json.dumps(self._payload(hook, payload, execute.WORKSPACE)).encode()
        if hook.in_sandbox:
            env = self._own_env(execute.WORKSPACE)
            ran = await execute.in_sandbox(hook, stdin, self.sandbox, env)
        else:
            ran = await execute.on_host(hook, stdin, self.repo, self.env)
        outcome = _judge(hook, ran)
        status = (
            HookOutcome.FAILED
            if ran.failure or ran.code not in (0, 2)
            else (HookOutcome.BLOCKED if outcome.blocked else HookOutcome.ALLOWED)
        )
        emit(
            HookRan(
                hook.event, hook.command, status, ran.code, outcome.reason or outcome.context,
                round(time.monotonic() - started, 3), tool, hook.source, hook.in_sandbox,
            )
        )  # fmt: skip
        return outcome

    # --- the points of a session, for the tools (`tools.base.ToolHooks`) and the Session ---

    async def before_tool(self, name: str, arguments: dict[str, Any], emit: Emit) -> str | None:
        """None: the tool may run. Otherwise what the model is told instead."""
        if not self:
            return None
        fields = {"tool_name": name, "tool_input": _claude_input(arguments)}
        outcome = await self.fire(HookEvent.PRE_TOOL_USE, fields, emit, name)
        if outcome.blocked:
            return f"Blocked by a PreToolUse hook: {outcome.reason} Do not retry it unchanged."
        return None

    async def after_tool(
        self, name: str, arguments: dict[str, Any], ok: bool, output: str, emit: Emit
    ) -> str:
        """What the PostToolUse hooks add to the tool's result ("" when nothing)."""
        if not self:
            return ""
        fields = {
            "tool_name": name,
            "tool_input": _claude_input(arguments),
            "tool_response": {"success": ok, "output": output[-_TAIL:]},
        }
        outcome = await self.fire(HookEvent.POST_TOOL_USE, fields, emit, name)
        said = [f"[PostToolUse hook: {outcome.reason}]" if outcome.blocked else ""]
        said.append(f"[hook context: {outcome.context}]" if outcome.context else "")
        return "\n".join(s for s in said if s)

    async def finishing(self, again: bool, emit: Emit) -> str | None:
        """None: the model may finish. Otherwise why a Stop hook wants it to go on."""
        if not self:
            return None
        outcome = await self.fire(HookEvent.STOP, {"stop_hook_active": again}, emit)
        return (outcome.reason or "a Stop hook objected") if outcome.blocked else None

    async def prompt_submitted(self, prompt: str, emit: Emit) -> Outcome:
        if not self:
            return ALLOWED
        return await self.fire(HookEvent.USER_PROMPT_SUBMIT, {"prompt": prompt}, emit)

    async def subagent_starting(
        self, agent_id: str, agent_type: str, task: str, emit: Emit
    ) -> tuple[bool, str]:
        """SubagentStart, matched on the agent's type: (blocked, why) when a hook blocks
        the child, else (False, the context the hooks add to its task)."""
        if not self:
            return False, ""
        fields = {"agent_id": agent_id, "agent_type": agent_type, "prompt": task}
        outcome = await self.fire(HookEvent.SUBAGENT_START, fields, emit, agent_type)
        return (True, outcome.reason) if outcome.blocked else (False, outcome.context)

    async def subagent_stopped(
        self, agent_id: str, agent_type: str, report: str, emit: Emit
    ) -> str:
        """SubagentStop once a child ended: what a hook that objected said ("" if none)."""
        if not self:
            return ""
        fields = {
            "agent_id": agent_id, "agent_type": agent_type, "stop_hook_active": False,
            "last_assistant_message": report,
        }  # fmt: skip
        outcome = await self.fire(HookEvent.SUBAGENT_STOP, fields, emit, agent_type)
        return (outcome.reason or "a SubagentStop hook objected") if outcome.blocked else ""

    async def simple(self, event: HookEvent, emit: Emit, **fields: Any) -> Outcome:
        """SessionStart, Stop, BeforeApply, AfterApply, BeforeCommit."""
        if not self:
            return ALLOWED
        return await self.fire(event, fields, emit)


def _claude_input(arguments: dict[str, Any]) -> dict[str, Any]:
    """The tool's arguments, with Claude Code's names beside kiln's (`file_path` for
    `path`), so a hook written for it reads them."""
    extra = {"file_path": arguments["path"]} if "path" in arguments else {}
    return {**arguments, **extra}


def _cut(text: str, limit: int) -> str:
    """What is shown of a hook's words: the start, and how much more there was."""
    text = text.strip()
    return (
        text if len(text) <= limit else f"{text[:limit]} [... {len(text) - limit} more characters]"
    )


def _judge(hook: Hook, ran: execute.Ran) -> Outcome:
    name = f"the {hook.event.value} hook `{hook.command}`"
    where = " in the sandbox" if hook.in_sandbox else ""
    said = _cut(ran.err or ran.out, _TAIL)
    if ran.failure or ran.code not in (0, 2):
        why = ran.failure or f"exited with {ran.code}"
        detail = f" It said: {said}" if said else ""
        return Outcome(
            True,
            f"{name} failed{where} ({why}), and kiln blocks what a failing hook guards.{detail}",
        )
    if ran.code == 2:
        return Outcome(
            True, _cut(ran.err, _TAIL) or f"{name} blocked it (exit 2) and gave no reason."
        )
    return _read_answer(hook, ran.out)


def _read_answer(hook: Hook, out: str) -> Outcome:
    """Exit 0: a JSON answer (parsed whole, whatever its length) may still block, or add
    context; plain stdout is context for the events that take it."""
    text = out.strip()
    plain_context = hook.event in (HookEvent.USER_PROMPT_SUBMIT, HookEvent.SESSION_START)
    try:
        answer = json.loads(text) if text.startswith("{") else None
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        return Outcome(context=_cut(text, _CONTEXT) if plain_context else "")
    specific = answer.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    context = _cut(
        str(specific.get("additionalContext") or answer.get("additionalContext") or ""), _CONTEXT
    )
    if specific.get("permissionDecision") == "deny":
        why = str(specific.get("permissionDecisionReason") or "denied")
        return Outcome(True, _cut(why, _TAIL), context)
    if answer.get("decision") == "block":
        return Outcome(True, _cut(str(answer.get("reason") or "blocked"), _TAIL), context)
    if answer.get("continue") is False:
        return Outcome(True, _cut(str(answer.get("stopReason") or "stopped"), _TAIL), context)
    return Outcome(context=context)
