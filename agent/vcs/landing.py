"""A change set landing on the person's side: asked about (flagged when it touches what
runs on the host), written to the working tree and the ledger (so /undo can take it back)
and, with `[git] commit` (or /commit), committed with a subject the fast model writes (a
template when no model answers). The session streams what these say."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from pathlib import Path

from agent.approval import Action
from agent.boundary import one_sentence
from agent.errors import KilnError
from agent.events import ActionDenied, Applied, Checkpointed, Level, Notice, Usage
from agent.hooks.points import applied, apply_blocked, commit_allowed
from agent.hooks.runner import HookRunner
from agent.present import changed_paths, flag_config
from agent.run.core import Emit, LoopDeps, Run
from agent.run.sampling import ask_once
from agent.settings import host_code, trust
from agent.settings.config import Settings
from agent.tools.gate import ApprovalGate
from agent.tools.testdigest import TestDigest
from agent.vcs import ledger
from agent.vcs.commit import (
    Provenance,
    clean_subject,
    commit_last_applied,
    hooks_not_run,
    message_request,
)
from agent.vcs.unparsable import unparsable_flags
from sandbox.base import Sandbox


def remember(repo: Path, session: str, diff: str, paths: list[str]) -> None:
    ledger.record(repo, ledger.Entry(session, diff, list(paths)))


def provenance(
    session_id: str, model: str, usage: Usage, cost_usd: float | None, tests: TestDigest | None
) -> Provenance:
    """The `Kiln-` trailers of a session's commit."""
    return Provenance(
        session_id, model, usage.prompt_total + usage.output, cost_usd, tests_line(tests)
    )


def tests_line(tests: TestDigest | None) -> str:
    if tests is None:
        return ""
    return f"{tests.passed} passed, {tests.failed} failed" + (
        f", {tests.errors} errors" if tests.errors else ""
    )


async def commit_applied(
    repo: Path,
    settings: Settings,
    hooks: HookRunner,
    emit: Emit,
    run: Run | None,
    task: str,
    who: Provenance,
) -> str:
    """`Session.commit()`'s work: the BeforeCommit hooks, then the commit."""
    await commit_allowed(hooks, repo, emit)
    with one_sentence():
        return await _commit_newest(repo, settings, run, task, who)


async def _commit_newest(
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
    theirs = await asyncio.to_thread(host_code.repository_git_hooks, repo)
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
    if theirs:
        said += (
            f" git's hooks were not run: they are the repository's ({theirs}) and would run "
            "the applied change's code on your machine; read it, then run them yourself "
            "(`git hook run pre-commit`)."
        )
    elif skipped:
        said += (
            f" git's hooks were not run: the change touches what they run ("
            f"{', '.join(skipped[:3])}); read it, then run them yourself (`git hook run "
            "pre-commit`)."
        )
    return said


async def land(
    repo: Path,
    session_id: str,
    diff: str,
    gate: ApprovalGate,
    hooks: HookRunner,
    emit: Emit,
    sandbox: Sandbox | None,
    deps: LoopDeps | None,
    commit: Callable[[], Awaitable[str]] | None,
    *,
    rebaseline: bool = True,
    flags: tuple[str, ...] = (),
) -> bool:
    """`Session.apply()`'s work: ask, write, make what was written the sandbox's baseline
    (unless `rebaseline` is False: the sandbox is about to close), then commit when
    `commit` is given. Ends with `Applied`, then the commit's sentence; returns whether
    the diff was written. `flags`: what else the person must know first (a change that
    finished without evidence)."""
    if not diff.strip():
        emit(Applied((), approved=False))
        return False
    broken = await unparsable_flags(repo, diff, sandbox) if sandbox is not None else ()
    written, approved = await apply_diff(
        repo, session_id, diff, gate, hooks, emit, (*flags, *broken)
    )
    if approved:
        if rebaseline:
            # What was applied is the repository's now: the next apply holds only what
            # came after it, or it would be refused as edited meanwhile.
            assert sandbox is not None  # the diff came from it
            with one_sentence():
                await sandbox.rebaseline()
        if deps is not None:
            deps.workspace_landed()
    emit(Applied(tuple(written), approved=approved))
    if written and commit is not None:
        try:
            emit(Notice(await commit(), Level.INFO))
        except KilnError as exc:  # applied all the same: the hook's refusal is shown
            emit(Notice(exc.message, Level.ERROR))
    return approved


async def apply_diff(
    repo: Path,
    session_id: str,
    diff: str,
    gate: ApprovalGate,
    hooks: HookRunner,
    emit: Emit,
    more_flags: tuple[str, ...] = (),
) -> tuple[list[str], bool]:
    """Ask (unless the mode says not to, or a BeforeApply hook blocks it first), then write
    `diff` to the working tree, run the AfterApply hooks and keep it in the ledger. Returns
    the paths written and whether the person approved. `more_flags`: what else the person
    must look at first (files the result leaves not parsing)."""
    from agent.vcs.apply import apply_to_host
    from agent.vcs.flagged import flags_for, refused_by_rules, trust_dropped

    flags = (*await asyncio.to_thread(flags_for, repo, diff, gate.rules), *more_flags)
    summary = flag_config(f"apply the changes to {repo}", changed_paths(diff))
    denied = refused_by_rules(gate.rules, diff, session_id)
    if denied is not None:  # an edit: deny rule holds for the diff, whatever tool made it
        emit(ActionDenied(Action.APPLY, summary, denied[0].describe(), denied[0].source))
        raise KilnError(denied[1])
    if flags:
        summary += "; look first: it " + "; it ".join(flags)
    refusal = await apply_blocked(hooks, diff, emit) or await gate.check(
        Action.APPLY, summary, emit, diff=diff, flags=flags
    )
    if refusal:
        return [], False
    written = await apply_to_host(repo, diff, session=session_id)  # kept in the ledger too
    await applied(hooks, written, emit)
    for name in trust_dropped(repo, written) if flags else []:
        emit(
            Notice(
                f"The applied changes altered what your trust of {name} covered: kiln "
                "ignores what it asks of your machine until you read it and run "
                "`kiln trust` again.",
                Level.WARNING,
            )
        )
    ended: bool = bool(written) and await asyncio.to_thread(trust.suspend, repo)
    if ended:
        emit(Notice(trust.SUSPENDED, Level.WARNING))
    return written, True


async def undo_applied(repo: Path, session_id: str) -> str | None:
    """Take the change set this session applied last out of the working tree (or off
    the branch); None when it applied nothing that is not undone yet."""
    from agent.vcs.undo import undo_last

    if ledger.last_open(repo, session_id) is None:
        return None
    return await asyncio.to_thread(undo_last, repo, session_id)


async def undo_step(
    sandbox: Sandbox, checkpoints: list[Checkpointed], deps: LoopDeps | None
) -> str:
    """/undo before anything was applied: the sandbox back to the checkpoint before the
    latest one (`checkpoints` loses that one); returns the label now current."""
    if not checkpoints:
        raise KilnError("There is nothing to undo yet.")
    checkpoints.pop()
    if checkpoints:
        ref, label = checkpoints[-1].ref, checkpoints[-1].label
    else:
        ref, label = str(getattr(sandbox, "baseline", "")), "start"
    with one_sentence():
        await sandbox.restore(ref)
        if deps is not None:
            deps.workspace_restored(await sandbox.diff())
    return label
