"""What every tool shares: the context it runs in, what it returns, how it is described.

Tools never touch the host: every file read, write and command goes through the Sandbox.
Questions for the person go through `ToolContext.gate` (agent/tools/gate.py); events a tool
wants shown while it runs (approvals) go through `ToolContext.emit`.
"""

from __future__ import annotations

import contextlib
import posixpath
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from agent.events import Event, PlanStep
from agent.llm.base import ToolSpec
from sandbox.base import Sandbox
from sandbox.frozen import frozen

if TYPE_CHECKING:
    from agent.context.index import RepoIndex
    from agent.custom.agents import Agents
    from agent.settings.config import Settings
    from agent.tools.gate import ApprovalGate
    from agent.tools.testdigest import TestDigest


class ToolFailure(Exception):
    """A mistake the model can fix; the message goes back to it as the tool result."""


@dataclass
class ToolResult:
    """A tool call's result: whether it worked, the output the model reads, and what the
    loop needs from it (an edit, a new plan, a test run)."""

    ok: bool
    output: str
    exit_code: int | None = None
    truncated: bool = False
    edited: bool = False  # the workspace changed (edit_file, write_file, or a command)
    plan: tuple[PlanStep, ...] | None = None
    tests: TestDigest | None = None


@dataclass(eq=False, repr=False)  # state, compared and shown by identity
class ToolContext:
    """What a tool runs with: the sandbox, settings, approval gate and the session's extras."""

    sandbox: Sandbox
    settings: Settings
    gate: ApprovalGate
    test_command: str  # detected or configured; "" when none was found
    emit: Callable[[Event], None] = lambda event: None
    # The longest a command may run; commands asking for more are capped here.
    max_command_timeout_s: float = 600.0
    # The session's repository tags (find_symbol); made on first use when not given.
    repo_index: RepoIndex | None = None
    # Tools beyond the coding group (MCP servers'), fixed for the session; None: none.
    external: ExternalTools | None = None
    # The person's PreToolUse/PostToolUse hooks, and Stop at `finish` (agent/hooks/); None: none.
    hooks: ToolHooks | None = None
    # The coding tools offered, when not all of them: a child agent's (agent/custom/agents.py).
    only: frozenset[str] | None = None
    # The agents the `agent` tool may start (agent/tools/delegate.py); None: no such tool
    # (a small model's session, and every child: children start no children).
    agents: Agents | None = None
    # Language servers in the sandbox: what an edit broke, where a definition is used
    # (agent/lsp/); None: none (`[lsp] enabled = false`).
    language_servers: LanguageTools | None = None


class ToolHooks(Protocol):
    """Hooks around every tool call (agent/hooks/runner.py's HookRunner)."""

    async def before_tool(
        self, name: str, arguments: dict[str, Any], emit: Callable[[Event], None]
    ) -> str | None:
        """None: the tool may run; otherwise what the model is told instead."""
        ...

    async def after_tool(
        self,
        name: str,
        arguments: dict[str, Any],
        ok: bool,
        output: str,
        emit: Callable[[Event], None],
    ) -> str:
        """What to add to the tool's result ("" when nothing)."""
        ...

    async def finishing(self, again: bool, emit: Callable[[Event], None]) -> str | None:
        """The Stop hooks when the model calls `finish`: None lets it finish; otherwise why
        it should go on. `again`: they objected before in this run (Claude Code's
        `stop_hook_active`)."""
        ...

    async def subagent_starting(
        self, agent_id: str, agent_type: str, task: str, emit: Callable[[Event], None]
    ) -> tuple[bool, str]:
        """SubagentStart: (True, why) blocks the child; (False, context) adds to its task."""
        ...

    async def subagent_stopped(
        self, agent_id: str, agent_type: str, report: str, emit: Callable[[Event], None]
    ) -> str:
        """SubagentStop: what a hook that objected said, "" when none did."""
        ...


class LanguageTools(Protocol):
    """What the session's language servers tell the tools (agent/lsp/servers.py)."""

    async def check_edit(
        self,
        sandbox: Sandbox,
        path: str,
        before: str | None,
        after: str,
        emit: Callable[[Event], None],
    ) -> str:
        """What changing `path` from `before` (None: a new file) to `after` introduced, as
        lines for the model; "" when nothing, or no server can tell (once said in a notice).
        An edit made while its server starts is checked in the background: `late()`."""
        ...

    def late(self) -> str:
        """What edits checked in the background introduced, for checks ended since the
        last call ("" when none has anything to say)."""
        ...

    def holding(self) -> contextlib.AbstractContextManager[None]:
        """While a step's tools and the checks after them run: a server's start waits."""
        ...

    async def references(self, sandbox: Sandbox, path: str, line: int, name: str) -> list[str]:
        """Where the definition of `name` on `line` of `path` is used ("path:line"), by a
        server running already; [] without one (a read never starts one)."""
        ...

    async def close(self) -> None: ...


class ExternalTools(Protocol):
    """Tools beyond the coding group (an MCP server's); see agent/tools/external.py."""

    @property
    def specs(self) -> tuple[ToolSpec, ...]:
        """Sorted by name and fixed when the session starts."""
        ...

    def owns(self, name: str) -> bool: ...

    def allowed(self, name: str) -> bool:
        """Whether the configuration lets `name` run without asking."""
        ...

    async def call(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        """Run one call; a server that fails, crashes or hangs gives a failed result."""
        ...

    async def close(self) -> None: ...


ToolFunc = Callable[[ToolContext, dict[str, Any]], Awaitable[ToolResult]]


@frozen
class Tool:
    """A tool: its spec for the model and the function that runs a call."""

    spec: ToolSpec
    run: ToolFunc | None  # None: the loop answers the call itself (finish)


def _spec(name: str, description: str, properties: dict[str, Any], required: list[str]) -> ToolSpec:
    schema = {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    return ToolSpec(name, description, schema)


def tool(
    name: str, description: str, properties: dict[str, Any], required: list[str]
) -> Callable[[ToolFunc], Tool]:
    """Declare a tool: its JSON schema lives next to the function that implements it."""

    def wrap(func: ToolFunc) -> Tool:
        return Tool(_spec(name, description, properties, required), func)

    return wrap


def spec_only(name: str, description: str, properties: dict[str, Any], required: list[str]) -> Tool:
    """A tool the model may call that the loop answers itself."""
    return Tool(_spec(name, description, properties, required), None)


def workspace_path(raw: Any, *, allow_root: bool = False) -> str:
    """A path relative to the repository root, refusing anything that escapes it."""
    if not isinstance(raw, str) or (not raw.strip() and not allow_root):
        raise ToolFailure("`path` must be a file path relative to the repository root.")
    path = raw.strip()
    for prefix in ("/workspace/", "./"):
        path = path.removeprefix(prefix)
    if path.startswith("/"):
        raise ToolFailure(
            f"{raw!r} is absolute; give the path relative to the repository root, "
            "e.g. 'src/app.py'."
        )
    normal = posixpath.normpath(path) if path else "."
    if normal == ".." or normal.startswith("../"):
        raise ToolFailure(f"{raw!r} points outside the repository; only files inside it exist.")
    if normal == "." and not allow_root:
        raise ToolFailure("`path` must name a file, not the repository root.")
    if normal == ".git" or normal.startswith(".git/"):
        raise ToolFailure("The .git directory is managed by kiln; leave it alone.")
    return normal


def arg_str(args: dict[str, Any], name: str, *, default: str | None = None) -> str:
    value = args.get(name, default)
    if value is None:
        raise ToolFailure(f"Missing required argument `{name}`.")
    if not isinstance(value, str):
        raise ToolFailure(f"`{name}` must be a string, not {type(value).__name__}.")
    return value


def arg_int(args: dict[str, Any], name: str) -> int | None:
    value = args.get(name)
    if value is None or value == "":
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ToolFailure(f"`{name}` must be an integer, not {value!r}.") from None
