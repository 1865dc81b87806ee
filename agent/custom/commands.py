"""Custom slash commands: Markdown prompts in `.kiln/commands/`, the user's kiln config,
`.claude/commands/` and `~/.claude/commands/` (Claude Code's format).

`/review-sql the orders query` runs the file's body as the task, `$ARGUMENTS` replaced by
what follows the name and `$1`, `$2` by its words; a file in a subfolder is namespaced
(`frontend/component.md` is `/frontend:component`). A repository's commands are prompts
for the model, not code for the host, so they need no trust, but each says where it came
from. A built-in command keeps its name: a custom one of the same name is left out, said
once. Front matter (description, argument-hint, allowed-tools, model) is optional; bad
front matter is one sentence naming the file, and the command still works.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable
from dataclasses import field
from pathlib import Path

from agent.custom.frontmatter import split
from agent.custom.places import places, read_text, readable
from sandbox.frozen import frozen

_NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]*(:[a-z0-9][a-z0-9_.-]*)*$")
_PLACEHOLDER = re.compile(r"\$(ARGUMENTS|\d+)")


@frozen
class CustomCommand:
    """One custom slash command: its name, its prompt, where it came from, its front matter."""

    name: str  # without the slash: `review-sql`, `frontend:component`
    body: str
    origin: str  # where it came from, as people write it: `.claude/commands/review-sql.md`
    description: str = ""
    argument_hint: str = ""
    allowed_tools: str = ""
    model: str = ""

    @property
    def takes_arguments(self) -> bool:
        return bool(self.argument_hint or _PLACEHOLDER.search(self.body))

    @property
    def help(self) -> str:
        first = next(
            (line.strip("# ").strip() for line in self.body.splitlines() if line.strip()), ""
        )
        about = self.description or first[:70] or "(an empty prompt)"
        return f"{about} (custom: {self.origin})"

    def expand(self, arguments: str) -> str:
        """The body with `$ARGUMENTS` and `$1`..`$9` filled in; arguments the body has no
        place for are added after it, so nothing typed is dropped."""
        try:
            words = shlex.split(arguments)
        except ValueError:  # an unclosed quote: plain words
            words = arguments.split()

        def fill(match: re.Match[str]) -> str:
            if match.group(1) == "ARGUMENTS":
                return arguments
            index = int(match.group(1))
            return words[index - 1] if 0 < index <= len(words) else ""

        text = _PLACEHOLDER.sub(fill, self.body)
        if arguments and not _PLACEHOLDER.search(self.body):
            text += f"\n\nARGUMENTS: {arguments}"
        return text

    def caveats(self) -> list[str]:
        """What its front matter asks for that kiln does otherwise."""
        said = []
        if self.model:
            said.append(
                f"it asks for the model {self.model}; kiln keeps the session's (/model switches)"
            )
        if self.allowed_tools:
            said.append("its allowed-tools are not applied; the approval mode decides")
        return said


@frozen
class CustomCommands:
    """The custom commands found, sorted by name, and what loading them had to say."""

    commands: tuple[CustomCommand, ...] = ()
    notes: list[str] = field(default_factory=list)  # said once, when they are loaded

    def get(self, name: str) -> CustomCommand | None:
        return next((c for c in self.commands if c.name == name), None)


def as_task(repo: Path, text: str, builtins: Iterable[str]) -> tuple[str, str]:
    """`kiln run "/review-sql orders.sql"`: a custom command's prompt as the task, and the
    sentence that says where it came from; any other text is the task as it is."""
    stripped = text.strip()
    if not stripped.startswith("/") or stripped.startswith("//"):
        return text, ""
    head, _, arguments = stripped[1:].partition(" ")
    command = load(repo, builtins).get(head.lower())
    if command is None:
        return text, ""
    return command.expand(arguments.strip()), f"/{command.name}: the prompt from {command.origin}."


def _one(path: Path, name: str, origin: str, notes: list[str]) -> CustomCommand | None:
    try:
        text = read_text(path)
    except OSError as exc:
        notes.append(f"The custom command {origin} cannot be read ({exc.strerror}).")
        return None
    matter = split(text)
    if matter.problem:
        notes.append(
            f"The custom command {origin}: {matter.problem}, so kiln reads the whole file as its "
            "prompt."
        )
    return CustomCommand(
        name=name,
        body=matter.body,
        origin=origin,
        description=matter.text("description"),
        argument_hint=matter.text("argument-hint"),
        allowed_tools=matter.text("allowed-tools"),
        model=matter.text("model"),
    )


def load(repo: Path | None, builtins: Iterable[str]) -> CustomCommands:
    """Every custom command of the repository and the user, sorted by name."""
    reserved = set(builtins)
    found: dict[str, CustomCommand] = {}
    notes: list[str] = []
    for place in places(repo, "commands"):
        if not place.folder.is_dir():
            continue
        for path in sorted(place.folder.rglob("*.md")):
            relative = path.relative_to(place.folder)
            origin = f"{place.shown}/{relative.as_posix()}"
            name = ":".join(relative.with_suffix("").parts).lower()
            if not readable(path, place) or name in found:
                continue  # a link out of the repository; or a name an earlier place has
            if not _NAME.match(name):
                notes.append(
                    f"The custom command {origin} is left out: a name has only letters, "
                    "digits, '-', '_' and '.'."
                )
                continue
            if name in reserved:
                notes.append(
                    f"The custom command {origin} is left out: /{name} is kiln's own command "
                    "(rename the file to use it)."
                )
                continue
            command = _one(path, name, origin, notes)
            if command is not None:
                found[name] = command
    return CustomCommands(tuple(found[n] for n in sorted(found)), notes)
