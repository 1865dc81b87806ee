"""What happens on the person's side once a change set is applied: it is written in the
ledger (so /undo can take it back) and, with `[git] commit` (or /commit), committed with a
subject the fast model writes (a template when no model answers)."""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path

from agent.run.core import Run
from agent.run.sampling import ask_once
from agent.settings.config import Settings
from agent.tools.testdigest import TestDigest
from agent.vcs import ledger
from agent.vcs.commit import (
    Provenance,
    clean_subject,
    commit_last_applied,
    hooks_not_run,
    message_request,
)


def remember(repo: Path, session: str, diff: str, paths: list[str]) -> None:
    ledger.record(repo, ledger.Entry(session, diff, list(paths)))


def tests_line(tests: TestDigest | None) -> str:
    if tests is None:
        return ""
    return f"{tests.passed} passed, {tests.failed} failed" + (
        f", {tests.errors} errors" if tests.errors else ""
    )


async def commit_applied(
    repo: Path, settings: Settings, run: Run | None, task: str, who: Provenance
) -> str:
    """Commit the session's newest applied change set; returns a sentence saying so."""
    entry = ledger.last_open(repo, who.session)
    diff = entry.diff if entry else ""
    subject = clean_subject("", task)
    if run is not None and entry is not None and not entry.commit:
        reply = await ask_once(run, message_request(task, diff), [], max_tokens=60, fast=True)
        if reply is not None:
            subject = clean_subject(reply.message.content, task)
    skipped = await asyncio.to_thread(hooks_not_run, repo, entry.paths) if entry else []
    sha = await asyncio.to_thread(
        functools.partial(
            commit_last_applied,
            branch=settings.git.branch,
            key_vars=settings.model_key_vars,
        ),
        repo,
        subject,
        who,
    )
    said = f"Committed {sha[:10]}: {subject}"
    if skipped:
        said += (
            f" git's hooks were not run: the change touches what they run ("
            f"{', '.join(skipped[:3])}); read it, then run them yourself (`git hook run "
            "pre-commit`)."
        )
    return said
