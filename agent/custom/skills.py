"""Skills: a folder with a `SKILL.md` whose front matter has `name` and `description` (the
open Agent Skills format read by Claude Code, Codex, opencode and others), found in
`.kiln/skills/`, the user's kiln config, `.claude/skills/` and `~/.claude/skills/`.

Only the metadata goes into the stable prefix: one line per skill, sorted by name and
capped, made once when the session starts, so the prefix a server caches never changes.
The body, and any file in the skill's folder by its relative path, is read by the
`read_skill` tool when the model chooses the skill.

Why a tool beyond the coding group: the group holds its limit of ten, and `read_file`
reads the sandbox's copy of the repository, where a user's skills never are; a tool of its
own exists only in sessions that have skills, so a session without any sends the same
prefix as before. It reads text and runs nothing, so it needs no approval.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import field
from pathlib import Path
from typing import Any

from agent.custom.frontmatter import split
from agent.custom.places import Place, described, places, read_text, readable
from agent.llm.base import ToolSpec
from agent.tools.base import ExternalTools, ToolResult
from sandbox.frozen import frozen

TOOL_NAME = "read_skill"
MAX_LISTED = 64  # skills named in the prefix; the rest are counted in a note
MAX_LISTED_CHARS = 8000  # about 2k tokens of the window, however long the descriptions
MAX_DESCRIPTION = 300  # characters of a description shown in the prefix
MAX_FILES_LISTED = 50
MAX_WALKED = 2000  # entries of a skill's folder looked at for that list
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")


@frozen
class Skill:
    """One skill: its name, its description and the folder its SKILL.md is in."""

    name: str
    description: str
    folder: Path
    origin: str  # `.claude/skills/sql-style`, `~/.config/kiln/skills/x`
    place: Place


@frozen
class Skills:
    """The skills found, sorted by name, and what loading them had to say."""

    skills: tuple[Skill, ...] = ()
    notes: list[str] = field(default_factory=list)

    def get(self, name: str) -> Skill | None:
        return next((s for s in self.skills if s.name == name), None)


def _one(folder: Path, place: Place, notes: list[str]) -> Skill | None:
    page = folder / "SKILL.md"
    origin = f"{place.shown}/{folder.name}"
    if not readable(page, place):
        return None
    read = described(page, f"The skill {origin}/SKILL.md", notes)
    if read is None:
        return None
    matter, description = read
    name = matter.text("name").strip() or folder.name
    if not _NAME.match(name):
        notes.append(
            f"The skill {origin} is left out: its name `{name}` is not lowercase letters, "
            "digits and '-' (64 at most)."
        )
        return None
    return Skill(name, description, folder, origin, place)


def load(repo: Path | None) -> Skills:
    """Every skill of the repository and the user, sorted by name; the first of a name wins."""
    found: dict[str, Skill] = {}
    notes: list[str] = []
    for place in places(repo, "skills"):
        if not place.folder.is_dir():
            continue
        for folder in sorted(p for p in place.folder.iterdir() if p.is_dir()):
            skill = _one(folder, place, notes)
            if skill is not None and skill.name not in found:
                found[skill.name] = skill
    return Skills(tuple(found[n] for n in sorted(found)), notes)


def prompt_section(skills: Skills) -> str:
    """The skills' metadata for the stable prefix; "" when there are none."""
    if not skills.skills:
        return ""
    lines: list[str] = []
    for skill in skills.skills[:MAX_LISTED]:
        about = skill.description
        if len(about) > MAX_DESCRIPTION:
            about = about[: MAX_DESCRIPTION - 1] + "…"
        line = f"- {skill.name}: {about}"
        if sum(len(x) + 1 for x in lines) + len(line) > MAX_LISTED_CHARS:
            break
        lines.append(line)
    left = len(skills.skills) - len(lines)
    if left > 0:
        lines.append(
            f"[{left} more skills are not listed here; read_skill reads any of them by name.]"
        )
    return (
        "## Skills\n\n"
        "Instructions for particular kinds of work. When the task matches a skill's "
        f"description, call {TOOL_NAME} with its name before you start, and follow what it "
        f"says; {TOOL_NAME} with `path` reads the other files in its folder.\n\n" + "\n".join(lines)
    )


SPEC = ToolSpec(
    TOOL_NAME,
    "Read a skill listed under Skills in the system prompt: its instructions (SKILL.md), "
    "or with `path` a file in its folder (as SKILL.md names it, e.g. reference/style.md).",
    {
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "the skill's name"},
            "path": {"type": "string", "description": "a file in the skill's folder"},
        },
        "required": ["name"],
        "additionalProperties": False,
    },
)


def read(skills: Skills, name: str, path: str = "") -> ToolResult:
    skill = skills.get(name.strip())
    if skill is None:
        known = ", ".join(s.name for s in skills.skills[:20])
        return ToolResult(False, f"There is no skill named {name!r}. Skills: {known}.")
    target = skill.folder / (path.strip() or "SKILL.md")
    try:
        target.resolve().relative_to(skill.folder.resolve())
    except (ValueError, OSError):
        return ToolResult(False, f"{path} is not inside the skill's folder.")
    if not readable(target, skill.place):
        return ToolResult(False, f"The skill {name} has no file {path or 'SKILL.md'}.")
    try:
        text = read_text(target)
    except OSError as exc:
        return ToolResult(False, f"{path or 'SKILL.md'} cannot be read ({exc.strerror}).")
    if path.strip():
        return ToolResult(True, text)
    walked = itertools.islice(skill.folder.rglob("*"), MAX_WALKED)  # a big folder stays quick
    files = sorted(
        p.relative_to(skill.folder).as_posix()
        for p in walked
        if p.is_file() and p.name != "SKILL.md"
    )
    listing = ""
    if files:
        shown = files[:MAX_FILES_LISTED]
        more = f" (and {len(files) - len(shown)} more)" if len(files) > len(shown) else ""
        listing = f"\n\nFiles in its folder ({TOOL_NAME} with `path`): {', '.join(shown)}{more}"
    return ToolResult(True, f"Skill {skill.name} ({skill.origin}):\n\n{split(text).body}{listing}")


class SkillTools:
    """`read_skill`, beside the MCP servers' tools (if any): an `ExternalTools`, listed
    after the coding group, sorted and fixed for the session."""

    def __init__(self, skills: Skills, mcp: ExternalTools | None = None) -> None:
        self.skills = skills
        self.mcp = mcp
        own = (SPEC,) if skills.skills else ()
        theirs = mcp.specs if mcp is not None else ()
        self._specs = tuple(sorted((*theirs, *own), key=lambda s: s.name))

    @property
    def specs(self) -> tuple[ToolSpec, ...]:
        return self._specs

    def owns(self, name: str) -> bool:
        if name == TOOL_NAME and self.skills.skills:
            return True
        return self.mcp is not None and self.mcp.owns(name)

    def allowed(self, name: str) -> bool:
        if name == TOOL_NAME:
            return True  # it reads text the person put there; nothing runs
        return self.mcp is not None and self.mcp.allowed(name)

    async def call(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        if name == TOOL_NAME:
            wanted, path = arguments.get("name"), arguments.get("path", "")
            if not isinstance(wanted, str) or not isinstance(path, str):
                return ToolResult(False, "read_skill takes a name and, maybe, a path (strings).")
            return read(self.skills, wanted, path)
        assert self.mcp is not None
        return await self.mcp.call(name, arguments)

    async def close(self) -> None:
        """Nothing of its own to close; the session closes the MCP servers itself."""


def with_skills(skills: Skills, mcp: ExternalTools | None) -> ExternalTools | None:
    """The session's tools beyond the coding group: the MCP servers' and read_skill."""
    if not skills.skills:
        return mcp
    return SkillTools(skills, mcp)
