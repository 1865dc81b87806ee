"""`kiln apply SESSION [--3way]`: write a stored session's changes to its repository later
(after an `--apply` that was refused, or a session that ended without applying)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from agent.approval import UNVERIFIED
from agent.errors import ExitCode, KilnError, UsageError
from agent.events import Applied, Level, Notice
from agent.present import escape_controls
from agent.settings import trust
from agent.settings.config import load_settings
from agent.settings.repo import still_there
from agent.store.db import Store
from agent.store.rescue import keep_patch
from agent.vcs import journal
from agent.vcs.apply import apply_to_host
from agent.vcs.flagged import flags_for, refused_by_rules

SHOWN = 10  # paths named after an apply; the rest counted


def main(args: argparse.Namespace) -> int:
    store = Store()
    try:
        row = store.find(args.session)
        if row is None:
            raise UsageError(
                f"No single stored session matches {args.session!r}; see `kiln sessions list`."
            )
        _, diff = store.state(row.id)
    finally:
        store.close()
    if not diff.strip():
        print(f"Session {row.id} has no changes to apply.")
        return 0
    if not still_there(row.repo):
        raise _gone(row.repo, row.id, diff)
    repo = Path(row.repo)
    settle_interrupted(repo)  # an apply cut short there: finished or rolled back first
    rules = load_settings(repo).permissions  # an edit: rule holds for the diff here too
    denied = refused_by_rules(rules, diff, row.id)
    if denied is not None:
        raise KilnError(denied[1])
    flags = flags_for(repo, diff, rules)
    if row.status not in ("done", "answered", ""):  # no evidence that the change works
        flags = (*flags, f"{UNVERIFIED}its session's last request ended {row.status}")
    if flags and not args.yes and not _confirmed(flags):
        print("Nothing was applied.")
        return int(ExitCode.TASK_FAILED)
    written = asyncio.run(apply_to_host(repo, diff, three_way=args.three_way, session=row.id))
    _record(row.id, Applied(tuple(written), approved=True))
    shown = ", ".join(written[:SHOWN]) + (
        f" and {len(written) - SHOWN} more" if len(written) > SHOWN else ""
    )
    print(escape_controls(f"Applied to {row.repo}: {shown}."))  # the diff's names
    if written and trust.suspend(Path(row.repo)):
        print(trust.SUSPENDED)
    return 0


def settle_interrupted(repo: Path) -> None:
    """Finish or roll back an apply to `repo` whose process died (`vcs.journal`), say which
    on stderr, and keep the session's record in step: applied when finished; when rolled
    back, still "not applied", so `kiln apply` writes it again."""
    recovered = journal.recover(repo)
    if recovered is None:
        return
    said = recovered.sentence(repo)
    print(f"kiln: {said}", file=sys.stderr)
    if recovered.session:
        _record(recovered.session, Notice(said, Level.WARNING))
    if recovered.finished and recovered.session:
        _record(recovered.session, Applied(tuple(recovered.paths), approved=True))


def _record(session: str, event: Applied | Notice) -> None:
    store = Store()
    try:
        store.record(session, event)
    finally:
        store.close()


def _gone(raw: str, session: str, diff: str) -> UsageError:
    """The sentence for a session whose repository was moved or deleted; its changes are
    kept as a patch for the person to apply where the repository is now."""
    kept = keep_patch(Path(raw), session, diff)
    what_to_do = (
        f"its changes are in {kept}: run `git apply {kept}` in the repository where it is now."
        if kept
        else f"move it back and run `kiln apply {session}` again."
    )
    return UsageError(
        f"The repository of session {session}, {raw}, is no longer there (moved or deleted); "
        + what_to_do
    )


def _confirmed(flags: tuple[str, ...]) -> bool:
    """Asked at the terminal; with no terminal to ask at, only --yes applies."""
    print(escape_controls("Look first: the diff " + "; it ".join(flags) + "."))
    if not sys.stdin.isatty():
        print("Run again with --yes to apply them all the same.")
        return False
    return input("Apply them? [y/N] ").strip().lower() in ("y", "yes")
