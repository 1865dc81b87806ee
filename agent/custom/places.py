"""Where custom commands and skills are found, in the order the first of a name wins: the
repository's `.kiln/`, the user's kiln config, the repository's `.claude/`, the user's
`~/.claude/`. Each file is named for people as it is written in that place."""

from __future__ import annotations

from pathlib import Path

from agent.custom.frontmatter import FrontMatter, split
from agent.settings.paths import config_dir
from sandbox.frozen import frozen

MAX_FILE_BYTES = 64_000  # a command or a skill's page: prompts, not a second repository


@frozen
class Place:
    """One folder where commands or skills are found, and the name people know it by."""

    folder: Path
    shown: str  # how people see the folder: `.claude/commands`, `~/.claude/commands`
    # A repository's own place: its root, and no link is followed out of it.
    repo: Path | None = None


def _home_relative(path: Path) -> str:
    try:
        return "~/" + str(path.relative_to(Path.home()))
    except ValueError:
        return str(path)


def places(repo: Path | None, kind: str) -> list[Place]:
    """The folders of `kind` ("commands" or "skills"), first wins."""
    found: list[Place] = []
    if repo is not None:
        found.append(Place(repo / ".kiln" / kind, f".kiln/{kind}", repo))
    user = config_dir() / kind
    found.append(Place(user, _home_relative(user)))
    if repo is not None:
        found.append(Place(repo / ".claude" / kind, f".claude/{kind}", repo))
    claude = Path.home() / ".claude" / kind
    found.append(Place(claude, _home_relative(claude)))
    return found


def readable(path: Path, place: Place) -> bool:
    """A regular file that stays inside its place (a repository's link may lead anywhere on
    the host, and what it reads goes to the model)."""
    if not path.is_file():
        return False
    if place.repo is not None:
        try:
            path.resolve().relative_to(place.repo.resolve())
        except (ValueError, OSError):
            return False
    return True


def read_text(path: Path) -> str:
    """The file's text, cut at MAX_FILE_BYTES with a note."""
    data = path.read_bytes()
    text = data[:MAX_FILE_BYTES].decode("utf-8", errors="replace")
    if len(data) > MAX_FILE_BYTES:
        text += f"\n[... cut here: {len(data)} bytes in all]"
    return text


def described(path: Path, what: str, notes: list[str]) -> tuple[FrontMatter, str] | None:
    """A skill's or an agent's front matter and its description on one line; None, said in
    `notes` as `what` ("The skill .kiln/skills/x/SKILL.md"), when it cannot be read or
    describes nothing."""
    try:
        matter = split(read_text(path))
    except OSError as exc:
        notes.append(f"{what} cannot be read ({exc.strerror}).")
        return None
    description = " ".join(matter.text("description").split())
    if matter.problem or not description:
        why = matter.problem or "its front matter has no description"
        notes.append(f"{what} is left out: {why}.")
        return None
    return matter, description
