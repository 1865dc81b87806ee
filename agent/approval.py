"""Questions for the person go through an injected Approver.

The TUI answers with a modal, line mode with a prompt, headless with a policy that
never waits. Which actions need asking depends on the approval mode.
"""

from __future__ import annotations

import enum
from typing import Protocol

from sandbox.frozen import frozen


class Mode(enum.StrEnum):
    PLAN = "plan"  # read only: no edits, only safe commands
    ASK = "ask"  # every edit and every unsafe command asks
    AUTO_EDIT = "auto-edit"  # edits and commands run in the sandbox; applying to the repo asks
    FULL_AUTO = "full-auto"  # nothing asks
    FAIL = "fail"  # headless: anything `ask` would ask about ends the run (exit 4)


# The modes a person works in (FAIL is headless only), in the order Shift+Tab cycles them.
INTERACTIVE_MODES: tuple[Mode, ...] = (Mode.PLAN, Mode.ASK, Mode.AUTO_EDIT, Mode.FULL_AUTO)


def next_mode(mode: Mode) -> Mode:
    """The mode after `mode` in the shift+tab cycle."""
    if mode not in INTERACTIVE_MODES:
        return Mode.ASK
    return INTERACTIVE_MODES[(INTERACTIVE_MODES.index(mode) + 1) % len(INTERACTIVE_MODES)]


def parse_mode(arg: str) -> Mode | None:
    """The interactive mode a person named (`--mode`, `/mode`, the config), else None."""
    try:
        mode = Mode(arg.strip().lower())
    except ValueError:
        return None
    return mode if mode in INTERACTIVE_MODES else None


class Action(enum.StrEnum):
    EDIT = "edit"  # a change to a file in the sandbox workspace
    COMMAND = "command"  # a shell command not on the safe list
    APPLY = "apply"  # writing the sandbox's diff to the person's working tree
    MCP = "mcp"  # a tool of an MCP server: it runs outside the sandbox, on the host or beyond


@frozen
class ApprovalRequest:
    """One question for the person: the action, a one-line summary and what it would change."""

    request_id: str
    action: Action
    summary: str  # one line: "edit src/app.py", "run `make deploy`"
    diff: str = ""
    command: str = ""
    path: str = ""  # the file edited, or the MCP tool called (mcp__SERVER__TOOL)
    # Set: asked whatever the mode, never remembered as ALWAYS (see ApprovalRequested.flags).
    flags: tuple[str, ...] = ()


# The flag of a change that finished without evidence that it works, or did not finish
# (agent/run/evidence.py): its apply is asked whatever the mode, and `kiln run --apply`
# writes it only with --apply-unverified.
UNVERIFIED = "is unverified: "


class Verdict(enum.StrEnum):
    APPROVE = "approve"
    REJECT = "reject"
    ALWAYS = "always"  # approve, and do not ask again for this kind of action this session
    # (for an MCP tool: for that tool)


@frozen
class Decision:
    """The person's answer to an ApprovalRequest, and the reason for a rejection."""

    verdict: Verdict
    reason: str = ""  # a rejection reason goes back to the model

    @property
    def approved(self) -> bool:
        return self.verdict is not Verdict.REJECT


class Approver(Protocol):
    async def decide(self, request: ApprovalRequest) -> Decision: ...


def needs_asking(mode: Mode, action: Action) -> bool:
    """Whether `mode` asks the person (or, for FAIL, stops) before `action`."""
    if mode is Mode.FULL_AUTO:
        return False
    if mode is Mode.AUTO_EDIT:
        return action in (Action.APPLY, Action.MCP)
    return True  # ASK, FAIL; PLAN refuses edits before asking (see loop)
