"""Which hooks there are: `[hooks]` in kiln's TOML, and Claude Code's `hooks` object in a
repository's `.claude/settings.json`.

kiln's TOML, one table per hook:

    [[hooks.PreToolUse]]
    matcher = "run"              # a regex over the tool's name; "" or "*" for every tool
    command = "scripts/guard.sh"
    timeout = 30                 # seconds; 60 when not given

Claude Code's shape is read as it is, in JSON or in TOML: `{"hooks": {"PreToolUse":
[{"matcher": "Bash", "hooks": [{"type": "command", "command": "...", "timeout": 30}]}]}}`.
Its tool names match kiln's tools too (`Bash` is `run`, `Edit|Write` are `edit_file` and
`write_file`), so a hook written for Claude Code guards the same calls here.
"""

from __future__ import annotations

import enum
import json
import math
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from agent.errors import ConfigError
from sandbox.frozen import frozen

CLAUDE_SETTINGS = ".claude/settings.json"
DEFAULT_TIMEOUT_S = 60.0


class HookEvent(enum.StrEnum):
    """The points of a session where hooks run (agent/hooks/), by Claude Code's names.
    Here rather than in agent/events.py (which names it too): the settings read hooks, and
    the events' thirty dataclasses are not needed for that."""

    PRE_TOOL_USE = "PreToolUse"  # before a tool runs: may block it
    POST_TOOL_USE = "PostToolUse"  # after: its stderr (exit 2) goes to the model
    USER_PROMPT_SUBMIT = "UserPromptSubmit"  # a request, before the model sees it: may block
    STOP = "Stop"  # the run ended (kiln does not make the model go on)
    SESSION_START = "SessionStart"
    BEFORE_APPLY = "BeforeApply"  # before the diff reaches the working tree: may block it
    AFTER_APPLY = "AfterApply"
    BEFORE_COMMIT = "BeforeCommit"  # before kiln's commit: may block it
    SUBAGENT_START = "SubagentStart"  # before a child agent starts: may block it, or add context
    SUBAGENT_STOP = "SubagentStop"  # a child agent ended: its objection is shown


TOOL_EVENTS = frozenset({HookEvent.PRE_TOOL_USE, HookEvent.POST_TOOL_USE})
# Events whose matcher takes a name: a tool's, or a child agent's type (Claude Code's way).
MATCHED_EVENTS = TOOL_EVENTS | {HookEvent.SUBAGENT_START, HookEvent.SUBAGENT_STOP}
# kiln's tools under the names Claude Code gives its own, for matchers written for it.
CLAUDE_NAMES = {
    "run": "Bash",
    "edit_file": "Edit",
    "write_file": "Write",
    "read_file": "Read",
    "search": "Grep",
    "list_files": "Glob",
}


@frozen
class Hook:
    """One hook: the command run at an event, for the tools its matcher takes; on the host
    (the person's own), or in the session's sandbox (a repository's: `hooks/load.py`)."""

    event: HookEvent
    command: str
    matcher: str = ""
    timeout_s: float = DEFAULT_TIMEOUT_S
    source: str = ""  # the file it came from
    in_sandbox: bool = False

    def matches(self, tool: str) -> bool:
        if self.event not in MATCHED_EVENTS or self.matcher in ("", "*"):
            return True
        names = (tool, CLAUDE_NAMES.get(tool, tool))
        try:
            return any(re.fullmatch(self.matcher, name) for name in names)
        except re.error:
            return self.matcher in names

    def describe(self) -> str:
        on = f" [{self.matcher}]" if self.matcher not in ("", "*") else ""
        where = " (in the sandbox)" if self.in_sandbox else ""
        return f"{self.event.value}{on}: {self.command}{where}"


def hooks_of(table: object, source: str) -> tuple[Hook, ...]:
    """The hooks of one `hooks` table (kiln's or Claude Code's shape); a mistake is one
    sentence naming the file."""
    if not isinstance(table, dict):
        raise ConfigError(
            f"{source}: `hooks` should be a table of events, as in [[hooks.PreToolUse]]."
        )
    hooks: list[Hook] = []
    for name, entries in table.items():
        try:
            event = HookEvent(name)
        except ValueError:
            known = ", ".join(e.value for e in HookEvent)
            raise ConfigError(f"{source}: hooks: no event {name!r}; kiln has {known}.") from None
        for entry in entries if isinstance(entries, list) else [entries]:
            hooks.extend(_entry(event, entry, source))
    return tuple(hooks)


def _entry(event: HookEvent, entry: object, source: str) -> list[Hook]:
    where = f"{source}: hooks.{event.value}"
    if not isinstance(entry, dict):
        raise ConfigError(f"{where}: each entry should be a table with `command`.")
    matcher = entry.get("matcher", "")
    if not isinstance(matcher, str):
        raise ConfigError(f"{where}: `matcher` should be text (a tool name or a regex).")
    inner = entry.get("hooks")
    commands = inner if isinstance(inner, list) else [entry]
    hooks = []
    for item in commands:
        if not isinstance(item, dict) or item.get("type", "command") != "command":
            raise ConfigError(f'{where}: kiln runs hooks of type "command" only.')
        command = item.get("command")
        timeout = item.get("timeout", DEFAULT_TIMEOUT_S)
        if not isinstance(command, str) or not command.strip():
            raise ConfigError(f"{where}: `command` should be the command line to run.")
        # JSON and TOML both spell nan and inf, and nan passes `<= 0`.
        number = isinstance(timeout, int | float) and not isinstance(timeout, bool)
        if not number or not math.isfinite(timeout) or timeout <= 0:
            raise ConfigError(f"{where}: `timeout` should be a number of seconds above 0.")
        hooks.append(Hook(event, command, matcher, float(timeout), source))
    return hooks


def claude_hooks(repo: Path) -> tuple[Hook, ...]:
    """The hooks of the repository's `.claude/settings.json` (none when it has none)."""
    path = repo / CLAUDE_SETTINGS
    if not path.is_file():
        return ()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ConfigError(f"{path} cannot be read as JSON ({exc}); fix it.") from None
    table = data.get("hooks") if isinstance(data, dict) else None
    return hooks_of(table, str(path)) if table else ()


def commands_leniently(repo: Path, toml_hooks: Iterable[Hook] = ()) -> list[str]:
    """Every repository hook's command line, for the trust hash of what they run; what
    cannot be read names nothing (the files themselves are trusted by hash)."""
    try:
        found = list(claude_hooks(repo))
    except ConfigError:
        found = []
    return [hook.command for hook in (*found, *toml_hooks)]


def repo_toml_hooks(repo: Path) -> tuple[Hook, ...]:
    """The hooks a repository's `.kiln.toml` names, read leniently (for the trust hash)."""
    import tomllib

    try:
        data: dict[str, Any] = tomllib.loads((repo / ".kiln.toml").read_text(encoding="utf-8"))
        return hooks_of(data["hooks"], str(repo / ".kiln.toml"))
    except (OSError, UnicodeDecodeError, ValueError, KeyError, ConfigError):
        return ()
