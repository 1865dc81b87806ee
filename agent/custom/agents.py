"""Subagent definitions: the ones people already have for Claude Code (`.claude/agents/*.md`,
`~/.claude/agents/*.md`), kiln's own (`.kiln/agents/`, the user's kiln config), and two
built in: `explore` (reads, never edits) and `general` (may edit its own copy).

A definition is Markdown with Claude Code's front matter: `name`, `description`, `tools`
(a list or "Read, Grep"), `model`; its body is the child's instructions. What it can do is
only ever narrowed: its `tools` choose among kiln's coding tools (Claude Code's names are
read as kiln's), a child never starts children of its own, and whatever else it asks
(`permissionMode`, hooks, MCP servers) is left out with a note: the mode, the permission
rules, the sandbox and its network stay the parent's. `model` is a hint: `fast` (or
Claude Code's `haiku`) takes `[models.fast]` when the person configured one; anything else
runs on the parent's model.
"""

from __future__ import annotations

from dataclasses import field
from pathlib import Path

from agent.custom.places import described, places, readable
from sandbox.frozen import frozen

# kiln's coding tools a child may be given, by their kiln names and Claude Code's.
READING = ("read_file", "list_files", "search", "find_symbol")
CLAUDE_NAMES = {
    "read": ("read_file",),
    "grep": ("search",),
    "glob": ("list_files",),
    "ls": ("list_files",),
    "edit": ("edit_file",),
    "multiedit": ("edit_file",),
    "write": ("write_file",),
    "notebookedit": ("edit_file",),
    "bash": ("run", "run_tests"),
    "todowrite": ("update_plan",),
}
KILN_TOOLS = frozenset(
    {*READING, "edit_file", "write_file", "run", "run_tests", "update_plan", "finish"}
)
WRITING = frozenset({"edit_file", "write_file", "run", "run_tests"})  # may change files
# Asked for by a definition, never granted: the parent's mode, rules, sandbox and network hold.
# (The front matter's keys are read in lower case.)
NOT_GRANTED = {
    "permissionmode": "permissionMode",
    "permission-mode": "permission-mode",
    "hooks": "hooks",
    "mcpservers": "mcpServers",
    "mcp-servers": "mcp-servers",
}
FAST_HINTS = frozenset({"fast", "haiku"})

EXPLORE = (
    "You explore a repository for another agent, who will read only your report. Read, "
    "list and search; you cannot change files. Finish with a short report: what you found, "
    "with file paths and line numbers, and what you could not find."
)
GENERAL = (
    "You carry out one self-contained task for another agent, in your own copy of the "
    "repository. The other agent reads only your report and may take your changes. Finish "
    "with a short report: what you changed and why, the files, and what the tests showed."
)


@frozen
class AgentDefinition:
    """One kind of child: its name, what it is for, its tools, its model hint, its prompt."""

    name: str
    description: str
    tools: frozenset[str]  # kiln's tool names; `finish` always among them
    prompt: str
    model: str = ""  # a hint: "fast" takes [models.fast]; anything else, the parent's model
    origin: str = "built-in"  # `.claude/agents/reviewer.md`, `~/.config/kiln/agents/x.md`

    @property
    def read_only(self) -> bool:
        return not self.tools & WRITING

    @property
    def mode(self) -> str:
        """What it may do, in people's words."""
        return "read-only" if self.read_only else "may edit"

    @property
    def wants_fast(self) -> bool:
        return self.model.lower() in FAST_HINTS


BUILT_IN = (
    AgentDefinition(
        "explore",
        "Reads and searches the repository to answer a question; cannot edit. Use it to "
        "find where something is, how a part works, or what a change would touch.",
        frozenset({*READING, "finish"}),
        EXPLORE,
        model="fast",
    ),
    AgentDefinition(
        "general",
        "Does one self-contained task in its own copy of the repository, edits and tests "
        "included, and hands back its changes for you to take or leave.",
        KILN_TOOLS,
        GENERAL,
    ),
)


@frozen
class Agents:
    """The definitions found, built-ins first then by name, and what loading them said."""

    definitions: tuple[AgentDefinition, ...] = BUILT_IN
    notes: list[str] = field(default_factory=list)

    def get(self, name: str) -> AgentDefinition | None:
        return next((d for d in self.definitions if d.name == name), None)


def tools_named(listed: list[str] | str) -> tuple[frozenset[str], list[str]]:
    """kiln's tools for a definition's `tools`, and the names it does not know."""
    names = listed if isinstance(listed, list) else listed.split(",")
    chosen: set[str] = {"finish"}
    unknown = []
    for raw in (n.strip() for n in names):
        if not raw:
            continue
        if raw in KILN_TOOLS:
            chosen.add(raw)
        elif raw.lower() in CLAUDE_NAMES:
            chosen.update(CLAUDE_NAMES[raw.lower()])
        else:
            unknown.append(raw)
    return frozenset(chosen), unknown


def _one(path: Path, origin: str, notes: list[str]) -> AgentDefinition | None:
    read = described(path, f"The agent {origin}", notes)
    if read is None:
        return None
    matter, description = read
    name = matter.text("name").strip() or path.stem
    if name in {d.name for d in BUILT_IN}:
        notes.append(f"The agent {origin} is left out: `{name}` is a built-in agent's name.")
        return None
    listed = matter.fields.get("tools")
    tools, unknown = tools_named(listed) if listed else (KILN_TOOLS, [])
    if unknown:
        notes.append(
            f"The agent {origin} names tools kiln does not give a child: "
            f"{', '.join(unknown)}; it runs without them."
        )
    asked = [shown for key, shown in NOT_GRANTED.items() if key in matter.fields]
    if asked:
        notes.append(
            f"The agent {origin} asks for {', '.join(asked)}: not granted; a child runs with "
            "the session's mode, permission rules and sandbox."
        )
    body = matter.body.strip() or GENERAL
    return AgentDefinition(name, description, tools, body, matter.text("model"), origin)


def load(repo: Path | None) -> Agents:
    """The built-ins, then every definition of the repository and the user by name; the
    first of a name wins (`.kiln/agents/`, the user's kiln config, `.claude/agents/`,
    `~/.claude/agents/`)."""
    found: dict[str, AgentDefinition] = {}
    notes: list[str] = []
    for place in places(repo, "agents"):
        if not place.folder.is_dir():
            continue
        for path in sorted(place.folder.glob("*.md")):
            if not readable(path, place):
                continue
            definition = _one(path, f"{place.shown}/{path.name}", notes)
            if definition is not None and definition.name not in found:
                found[definition.name] = definition
    return Agents((*BUILT_IN, *(found[n] for n in sorted(found))), notes)


def listing(agents: Agents, offered: bool | None = None) -> list[str]:
    """The definitions for people (/agents, `kiln config show`): name, where it comes from,
    what it may do; then what loading said. `offered`: whether the session's model gets
    the `agent` tool (None: not known yet)."""
    lines = []
    for d in agents.definitions:
        tools = d.mode
        if d.origin != "built-in" and d.tools != KILN_TOOLS:
            tools += f"; {', '.join(sorted(d.tools - {'finish'}))}"
        lines.append(f"{d.name} ({d.origin}, {tools}): {' '.join(d.description.split())}")
    lines.extend(agents.notes)
    if offered is False:
        lines.append(
            "The model in use does not get the agent tool: a small model's tools stay as they are."
        )
    return lines
