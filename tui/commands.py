"""The slash commands both front ends offer, and parsing what the person typed.

No Textual here: line mode (`tui.chat`) uses the same table without importing it.
"""

from __future__ import annotations

from dataclasses import dataclass

from agent.approval import Mode

INTERACTIVE_MODES: tuple[Mode, ...] = (Mode.PLAN, Mode.ASK, Mode.AUTO_EDIT, Mode.FULL_AUTO)


@dataclass(frozen=True)
class SlashCommand:
    name: str
    help: str
    arg: str = ""  # placeholder shown in help, e.g. "[MODE]"


COMMANDS: tuple[SlashCommand, ...] = (
    SlashCommand("mode", "switch the approval mode (plan, ask, auto-edit, full-auto)", "[MODE]"),
    SlashCommand("model", "show the model profiles, or switch to one", "[NAME]"),
    SlashCommand("diff", "show the sandbox's changes so far"),
    SlashCommand("apply", "write the sandbox's changes to your working tree (asks first)"),
    SlashCommand("undo", "undo the last step in the sandbox"),
    SlashCommand("review", "review commits"),
    SlashCommand("cost", "tokens, cache hits and money spent in this session"),
    SlashCommand("compact", "summarise the conversation to free context"),
    SlashCommand("sessions", "list stored sessions"),
    SlashCommand("theme", "switch the colour theme (remembered)", "[NAME]"),
    SlashCommand("help", "commands and keys"),
    SlashCommand("quit", "close the sandbox and leave"),
)

BY_NAME = {c.name: c for c in COMMANDS}


@dataclass(frozen=True)
class ParsedCommand:
    name: str
    arg: str


def parse(text: str) -> ParsedCommand | None:
    """`/mode ask` -> ParsedCommand("mode", "ask"); plain text -> None."""
    stripped = text.strip()
    if not stripped.startswith("/") or stripped.startswith("//"):
        return None
    head, _, arg = stripped[1:].partition(" ")
    return ParsedCommand(head.lower(), arg.strip())


def completions(text: str) -> list[SlashCommand]:
    """Commands whose name starts with what follows the slash (only while no space typed)."""
    if not text.startswith("/") or " " in text or "\n" in text:
        return []
    prefix = text[1:].lower()
    return [c for c in COMMANDS if c.name.startswith(prefix)]


def next_mode(mode: Mode) -> Mode:
    """The mode after `mode` in the shift+tab cycle."""
    if mode not in INTERACTIVE_MODES:
        return Mode.ASK
    return INTERACTIVE_MODES[(INTERACTIVE_MODES.index(mode) + 1) % len(INTERACTIVE_MODES)]


def parse_mode(arg: str) -> Mode | None:
    try:
        mode = Mode(arg.strip().lower())
    except ValueError:
        return None
    return mode if mode in INTERACTIVE_MODES else None


def help_lines() -> list[str]:
    width = max(len(c.name) + len(c.arg) for c in COMMANDS) + 3
    return [f"/{c.name} {c.arg}".ljust(width) + f" {c.help}" for c in COMMANDS]
