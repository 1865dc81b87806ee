"""Approval for edits and commands, per mode.

PLAN refuses edits, unsafe commands and MCP tools; ASK asks the person; AUTO_EDIT and
FULL_AUTO let the sandbox take edits and commands (MCP tools, outside it, still ask in
AUTO_EDIT); FAIL (headless) ends the run at once where ASK would have asked.
A verdict of ALWAYS is remembered for that kind of action for the rest of the session.
Permission rules (`agent/permissions.py`) come before the mode: deny refuses in every
mode, ask asks in every mode (a run with no person refuses), allow skips the question.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable

from agent.approval import Action, ApprovalRequest, Approver, Mode, Verdict, needs_asking
from agent.events import ActionDenied, ApprovalRequested, ApprovalResolved, Event
from agent.permissions import Effect, PermissionRules, Ruling


class ApprovalStop(Exception):
    """Raised in FAIL mode where ASK would have asked: the run must end with exit 4."""

    def __init__(self, request: ApprovalRequest) -> None:
        super().__init__(request.summary)
        self.request = request


# Commands that only look, or run tests, in the sandbox. Anything else asks in ASK mode.
SAFE_PROGRAMS = frozenset(
    [
        "ls",
        "cat",
        "head",
        "tail",
        "wc",
        "grep",
        "egrep",
        "fgrep",
        "rg",
        "find",
        "tree",
        "pwd",
        "echo",
        "printf",
        "file",
        "stat",
        "du",
        "diff",
        "sort",
        "uniq",
        "cut",
        "true",
        "which",
        "whoami",
        "date",
        "basename",
        "dirname",
        "realpath",
        "nl",
        "less",
        "more",
        "pytest",
        "tox",
        "nox",
        "jest",
        "vitest",
    ]
)
SAFE_SUBCOMMANDS = {
    "git": {"status", "diff", "log", "show", "branch", "blame", "ls-files", "grep", "rev-parse"},
    "go": {"test", "vet", "list", "version"},
    "cargo": {"test", "check", "tree", "metadata"},
    "npm": {"test", "ls"},
    "make": {"test", "check", "-n"},
}
_PYTHON = re.compile(r"^python(3(\.\d+)?)?$")
_SAFE_PYTHON_MODULES = {"pytest", "unittest", "pip"}  # pip only with list/show/freeze below
_UNSAFE_SYNTAX = re.compile(r"(?<![0-9&])>|\$\(|`|<\(")  # redirects and substitutions
_FIND_ACTIONS = {"-exec", "-execdir", "-delete", "-ok", "-okdir", "-fprint", "-fls"}


def is_safe_command(command: str) -> bool:
    """Whether `command` only reads or runs tests; pipelines must be safe in every part."""
    if not command.strip() or _UNSAFE_SYNTAX.search(command.replace("2>&1", "")):
        return False
    parts = re.split(r"&&|\|\||[;|\n]", command)
    return all(_safe_simple(part) for part in parts)


def _safe_simple(part: str) -> bool:
    try:
        words = shlex.split(part)
    except ValueError:
        return False
    while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
        words = words[1:]  # leading VAR=value assignments
    if not words:
        return True
    program = words[0].rsplit("/", 1)[-1]
    if program in SAFE_PROGRAMS:
        return not (program == "find" and _FIND_ACTIONS & set(words))
    if program in SAFE_SUBCOMMANDS:
        return len(words) > 1 and words[1] in SAFE_SUBCOMMANDS[program]
    if _PYTHON.match(program):
        if len(words) > 2 and words[1] == "-m" and words[2] in _SAFE_PYTHON_MODULES:
            return words[2] != "pip" or (len(words) > 3 and words[3] in {"list", "show", "freeze"})
        return len(words) == 2 and words[1] in {"--version", "-V"}
    return False


class ApprovalGate:
    """The session's approval state: current mode, remembered ALWAYS verdicts, the approver."""

    def __init__(
        self, approver: Approver, mode: Mode, rules: PermissionRules | None = None
    ) -> None:
        self.approver = approver
        self.mode = mode
        self.rules = rules or PermissionRules()
        # Actions approved for the rest of the session; an MCP tool is remembered by name.
        self.always: set[Action | str] = set()

    async def check(
        self,
        action: Action,
        summary: str,
        emit: Callable[[Event], None],
        *,
        diff: str = "",
        command: str = "",
        path: str = "",
        flags: tuple[str, ...] = (),
    ) -> str | None:
        """None when the action may go ahead; otherwise the refusal to send to the model.

        `flags` (why this one reaches past the sandbox) make it ask in every mode but
        PLAN's refusals, ALWAYS or not. Raises ApprovalStop in FAIL mode where ASK would
        have asked.
        """
        ruling = self._ruling(action, command, path)
        if ruling is not None and ruling.effect is Effect.DENY:
            emit(ActionDenied(action, summary, ruling.rule.describe(), ruling.rule.source))
            return (
                f"Refused by the person's rule {ruling.rule.describe()}: `{summary}` was not "
                "done. Do not retry it or work around it; do without it, or say in your "
                "summary that it was refused."
            )
        forced = ruling is not None and ruling.effect is Effect.ASK
        if action is Action.COMMAND and is_safe_command(command) and not forced:
            return None
        if self.mode is Mode.PLAN and action is not Action.APPLY:
            return (
                f"Refused: plan mode is read-only, so `{summary}` was not done. "
                "Describe the change in your plan instead."
            )
        remembered: Action | str = f"mcp:{path}" if action is Action.MCP else action
        if ruling is not None and ruling.effect is Effect.ALLOW and not flags:
            return None
        asked = bool(flags) or forced or needs_asking(self.mode, action)
        if not asked or (remembered in self.always and not flags and not forced):
            return None
        if forced and ruling is not None:
            summary = f"{summary} ({ruling.reason})"
        request = ApprovalRequest(
            request_id=os.urandom(6).hex(),
            action=action,
            summary=summary,
            diff=diff,
            command=command,
            path=path,
            flags=flags,
        )
        if self.mode is Mode.FAIL:
            raise ApprovalStop(request)
        emit(ApprovalRequested(request.request_id, action, summary, diff, command, path, flags))
        decision = await self.approver.decide(request)
        emit(ApprovalResolved(request.request_id, decision.verdict, decision.reason))
        if decision.verdict is Verdict.ALWAYS and not flags and not forced:
            self.always.add(remembered)
        if decision.approved:
            return None
        why = f" Their reason: {decision.reason}" if decision.reason else ""
        return f"The person rejected `{summary}`.{why} Do not retry it unchanged."

    def _ruling(self, action: Action, command: str, path: str) -> Ruling | None:
        if not self.rules or action is Action.APPLY:
            return None
        return self.rules.verdict(action, command if action is Action.COMMAND else path)
