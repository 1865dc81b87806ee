"""What kiln applied to a repository, kept inside its git directory (never in the work
tree): each change set's diff, paths, session and, once committed, its commit. `kiln undo`
and `/undo` read the newest entry not yet undone; a crash between apply and commit loses
nothing, since the entry is written first."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from agent.vcs.gitcmd import git_dir


@dataclass
class Entry:
    """One change set kiln applied: its session, diff and paths, its commit, whether undone."""

    session: str
    diff: str
    paths: list[str] = field(default_factory=list)
    commit: str = ""  # the commit that holds it, once committed
    undone: bool = False
    time: float = field(default_factory=time.time)


def ledger_path(repo: Path) -> Path:
    return git_dir(repo) / "kiln" / "applied.jsonl"


def entries(repo: Path) -> list[Entry]:
    return _read(ledger_path(repo))


def _read(path: Path) -> list[Entry]:
    if not path.is_file():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            out.append(Entry(**json.loads(line)))
    return out


def _write(path: Path, all_entries: list[Entry]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(asdict(e)) + "\n" for e in all_entries)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def record(repo: Path, entry: Entry) -> None:
    path = ledger_path(repo)  # one `git rev-parse` for the read and the write
    _write(path, [*_read(path), entry])


def last_open(repo: Path, session: str = "") -> Entry | None:
    """The newest change set not undone yet (of `session`, when given)."""
    for entry in reversed(entries(repo)):
        if not entry.undone and (not session or entry.session == session):
            return entry
    return None


def update(repo: Path, changed: Entry) -> None:
    """Write `changed` back over the entry it was read from (matched by time and session)."""
    path = ledger_path(repo)
    kept = _read(path)
    for index, entry in enumerate(kept):
        if entry.time == changed.time and entry.session == changed.session:
            kept[index] = changed
    _write(path, kept)
