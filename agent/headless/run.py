"""`kiln run "TASK"`: one task, no person, a clear result and a documented exit code.

Nothing may wait for an answer. `auto-edit` and `full-auto` let the sandbox take every edit
and command; the repository is written only with `--apply` (and only when the task is
done). `fail` ends the run with exit 4 at the first thing `ask` mode would have asked about.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import json
import os
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from agent.approval import UNVERIFIED, Action, ApprovalRequest, Decision, Mode, Verdict
from agent.boundary import start_sandbox
from agent.errors import ExitCode, KilnError
from agent.present import escape_controls
from agent.settings.config import Settings

# The session, the store, the model client and the events are imported only once the
# container is being started (see run_headless): their imports then cost the run nothing.
if TYPE_CHECKING:
    from agent.events import Event, Finished
    from agent.llm.base import ModelClient
    from agent.session import Session
    from agent.session.baseline import SharedBaselines
    from agent.store.db import Store
    from sandbox.base import Sandbox
    from sandbox.launch import EarlyLaunch


# Ctrl+C, kill, and the terminal closing: each ends the run as an interruption (exit 130).
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


# Whether one attempt's finished run is the one whose diff to apply (see run_headless).
Chooser = Callable[["Session", "Finished"], Awaitable[bool]]


class HeadlessApprover:
    """Never waits: writing to the repository was consented to by `--apply`, a flagged
    change (host files, most of the repository deleted) by `--apply-flagged` as well, and
    a change without evidence that it works by `--apply-unverified`; nothing else asks."""

    def __init__(
        self, apply: bool, apply_flagged: bool = False, apply_unverified: bool = False
    ) -> None:
        self.apply = apply
        self.apply_flagged = apply_flagged
        self.apply_unverified = apply_unverified
        self.refused_flags: tuple[str, ...] = ()  # why the last apply was refused

    async def decide(self, request: ApprovalRequest) -> Decision:
        if request.action is Action.APPLY and self.apply:
            flags = request.flags
            if self.apply_unverified:
                flags = tuple(f for f in flags if not f.startswith(UNVERIFIED))
            if not flags or self.apply_flagged:
                return Decision(Verdict.APPROVE)
            self.refused_flags = request.flags
            return Decision(Verdict.REJECT, "flagged, and --apply-flagged was not given")
        return Decision(Verdict.REJECT, "no person is present to approve this (headless run)")


async def run_headless(
    args: argparse.Namespace,
    repo: Path,
    settings: Settings,
    *,
    client: ModelClient | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    store: Store | None = None,
    handle_signals: bool = True,
    chosen: Chooser | None = None,
    baselines: SharedBaselines | None = None,
    early: EarlyLaunch | None = None,
) -> int:
    """The whole run; `client`, `out`, `err` and `store` are there for in-process callers.

    `handle_signals=False` leaves Ctrl+C to a caller running several runs at once (`kiln
    batch`): it cancels the run's task instead. `chosen`, for one of several attempts at
    one task (`--attempts`, agent/headless/attempts.py): asked once the run finished, with
    its session still open, whether its diff is the one to apply; `baselines`, the attempts'
    shared baseline test runs (one run per command for all of them); `early`, the sandbox
    `kiln run` asked for before this began (agent/headless/start.py)."""
    out, err = out or sys.stdout, err or sys.stderr
    started = time.monotonic()
    session_id = early.launch.session_id if early else os.urandom(6).hex()
    # Starting the container is the longest wait of a short run: it begins first, and
    # everything else (imports, the model client, the session) happens meanwhile.
    made: list[Sandbox] = []
    notices: list[str] = []

    set_up: list[str] = []

    def setup_line(line: str) -> None:
        set_up.append(line)
        print(f"[setup] {line}", file=err, flush=True)

    engine_busy = asyncio.Event()
    if early is not None:
        engine_busy.set()  # the engine has had the container to make for a while
    sandbox_started = asyncio.ensure_future(
        start_sandbox(
            repo, settings, session_id, made, notices.append, setup_line, engine_busy.set,
            early=early,
        )
    )  # fmt: skip
    interrupted: list[bool] = []
    loop = asyncio.get_running_loop()
    signals = STOP_SIGNALS if handle_signals else ()
    with contextlib.suppress(NotImplementedError, RuntimeError):
        for signum in signals:
            loop.add_signal_handler(signum, interrupted.append, True)
    session: Session | None = None
    try:
        sessions: list[Session] = []
        try:
            session = await _started_session(
                args, repo, settings, session_id, client, store, made, sandbox_started,
                engine_busy, interrupted, sessions, baselines,
            )  # fmt: skip
        except (KilnError, KeyboardInterrupt) as exc:
            session = sessions[0] if sessions else None
            _early_result(exc, args, repo, session_id, session, started, out)
            raise
        with contextlib.suppress(NotImplementedError, RuntimeError):
            for signum in signals:
                loop.add_signal_handler(signum, session.cancel)
        # What the start says (a repository's hooks not run, its MCP servers waiting for
        # trust): a Notice each for the text and the stream, and the result's `notes`.
        start_notes = [*notices, *session.start_notes]
        for notice in start_notes:
            session.notice(notice)
        # The wall clock counts from the command's start, as the person does: a slow start
        # (a model server still busy with the last run) must not push the end past it.
        # A one-time set-up (building the sandbox image) is not the run's time.
        finished = await _drive(session, args, out, err, None if set_up else started)
        await session.stop_language_servers()  # the run is over: their answers reach no one
        await _stop_jobs(session, args, out, err)
        if chosen is not None:
            kept = await chosen(session, finished)  # asked even without --apply: it reports
            args.apply = args.apply and kept
        return await _conclude(session, args, finished, started, out, err, start_notes)
    finally:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            for signum in signals:
                loop.remove_signal_handler(signum)
        if not sandbox_started.done():  # the start failed before it waited for the sandbox
            await asyncio.gather(sandbox_started, return_exceptions=True)
        if session is not None:
            await session.close()
        if made and (session is None or session.sandbox is not made[-1]):
            await made[-1].close()  # it did not start, so the session never took it
        if early is not None and not early.settled:  # no sandbox took it: what it made goes
            await asyncio.to_thread(early.abandon)


async def _started_session(
    args: argparse.Namespace,
    repo: Path,
    settings: Settings,
    session_id: str,
    client: ModelClient | None,
    store: Store | None,
    made: list[Sandbox],
    sandbox_started: asyncio.Future[Sandbox],
    engine_busy: asyncio.Event,
    interrupted: list[bool],
    made_session: list[Session],
    baselines: SharedBaselines | None = None,
) -> Session:
    """The model client, the store and the session, made while the sandbox starts; the
    session's own start (the repo map, the server's window) goes on while it still does.

    `made_session` gets the session as soon as it exists, so it is closed (and records the
    failure) whatever happens next."""
    # The imports below would share the interpreter with the sandbox's own start (the
    # backend's import, the workspace made ready): they begin once the engine has the
    # container to create and start, the longest wait.
    waiting: asyncio.Future[Any] = asyncio.ensure_future(engine_busy.wait())
    await asyncio.wait((waiting, sandbox_started), return_when=asyncio.FIRST_COMPLETED)
    waiting.cancel()
    client_created = asyncio.ensure_future(_create_client_after_imports(client, settings))
    # Opening the session store fits inside the wait as well.
    store_opened = asyncio.ensure_future(asyncio.to_thread(_open_store, store))
    outcomes = await asyncio.gather(client_created, store_opened, return_exceptions=True)
    from agent.session import Session

    session = Session(
        settings,
        repo,
        HeadlessApprover(
            bool(args.apply),
            bool(getattr(args, "apply_flagged", False)),
            bool(getattr(args, "apply_unverified", False)),
        ),
        Mode(args.approval),
        session_id=session_id,
        client=None if isinstance(outcomes[0], BaseException) else outcomes[0],
        store=None if isinstance(outcomes[1], BaseException) else outcomes[1],
        sandbox_starting=sandbox_started,
        shared_baselines=baselines,
    )
    made_session.append(session)
    if interrupted or any(isinstance(outcome, BaseException) for outcome in outcomes):
        # The sandbox runs to the end before an error is raised, so close() knows every
        # container; a model problem is reported before a sandbox one.
        started = await asyncio.gather(sandbox_started, return_exceptions=True)
        for outcome in (outcomes[0], started[0], outcomes[1]):
            if isinstance(outcome, BaseException):
                raise outcome
    else:
        await session.start()
    if interrupted:  # Ctrl+C while starting: stop here (exit 130), nothing was done
        raise KeyboardInterrupt
    return session


def _early_result(
    exc: BaseException,
    args: argparse.Namespace,
    repo: Path,
    session_id: str,
    session: Session | None,
    started: float,
    out: TextIO,
) -> None:
    """A run that ended before it began (no model, no sandbox, Ctrl+C) still leaves its
    result object for scripts and its row in the store; the sentence goes to stderr."""
    from agent.errors import ModelError, SandboxError
    from agent.events import Finished, Level, Notice, SessionStarted, StopReason
    from agent.run.stops import status_for

    message = exc.message if isinstance(exc, KilnError) else "Interrupted while starting."
    reasons = {ModelError: StopReason.MODEL_ERROR, SandboxError: StopReason.SANDBOX_ERROR}
    reason = next((r for kind, r in reasons.items() if isinstance(exc, kind)), None)
    if isinstance(exc, KeyboardInterrupt):
        reason = StopReason.CANCELLED
    store = session.store if session is not None else None
    if store is not None:
        model = session.client.profile.model if session and session.client else ""
        store.record(
            session_id, SessionStarted(session_id, str(repo), args.task, model, Mode(args.approval))
        )
        store.record(session_id, Notice(message, Level.ERROR))
        if reason is not None:
            store.record(session_id, Finished(status_for(reason), reason, message))
    if args.output_format == "text":
        return
    from agent.headless.output import early_report

    code = exc.exit_code if isinstance(exc, KilnError) else ExitCode.INTERRUPTED
    stop = reason.value if reason else "config_error"
    report = early_report(session_id, stop, code, message, time.monotonic() - started)
    from agent.store.failures import StoreError

    store_error = message if isinstance(exc, StoreError) else None
    extra = {"patch_out": args.patch_out, "store_error": store_error, "patch_kept": None}
    out.write(json.dumps({**report, **extra}) + "\n")
    out.flush()


def _open_store(given: Store | None) -> Store:
    from agent.store.db import Store

    return given if given is not None else Store()


# What resolving and opening the model client needs, imported first: the server is asked
# what it is (agent/settings/resolve.py) while the rest loads. httpx imports its transport
# (httpcore) when the first client is made, and its async backend on the first request:
# each would otherwise be imported on the loop.
CLIENT_MODULES = (
    "agent.settings.resolve",
    "agent.llm.factory",
    "agent.llm.openai_compat",
    "httpcore",
    "anyio._backends._asyncio",
)
RUN_MODULES = ("agent.session", "agent.headless.output", "agent.run.stops")


def _import_modules(names: tuple[str, ...]) -> None:
    for name in names:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)


async def _create_client_after_imports(
    client: ModelClient | None, settings: Settings
) -> ModelClient:
    # In a thread, or the imports would hold up the sandbox's next step on the loop.
    await asyncio.to_thread(_import_modules, CLIENT_MODULES)
    the_rest = asyncio.ensure_future(asyncio.to_thread(_import_modules, RUN_MODULES))
    try:
        if client is None:
            from agent.settings.resolve import open_client, resolve_profile

            client = await open_client(await resolve_profile(settings))
    finally:
        await the_rest
    return client


async def _drive(
    session: Session, args: argparse.Namespace, out: TextIO, err: TextIO, clock_from: float | None
) -> Finished:
    from agent.events import Finished

    finished: Finished | None = None
    async for event in session.run(args.task, clock_from):
        _emit(event, args.output_format, out, err)
        if isinstance(event, Finished):
            finished = event
    assert finished is not None, "the loop always ends with Finished"
    return finished


async def _stop_jobs(session: Session, args: argparse.Namespace, out: TextIO, err: TextIO) -> None:
    """The jobs the model left running are stopped once the run ended, each named by its
    JobStopped (and in the result's `jobs`): nothing outlives `kiln run`."""
    from agent.events import JobEnd

    if session.jobs():  # their JobStopped events (those already ended, too) go out now
        async for event in session.stop_jobs(JobEnd.RUN_ENDED):
            _emit(event, args.output_format, out, err)


def _emit(event: Event, fmt: str, out: TextIO, err: TextIO) -> None:
    if fmt == "stream-json":
        out.write(json.dumps(event.to_dict()) + "\n")
        out.flush()
    elif fmt == "text":
        from agent.headless.output import render_text

        line = render_text(event)
        if line:  # the model's words and a tool's output: their control characters shown
            err.write(escape_controls(line) + "\n")
            err.flush()


async def _conclude(
    session: Session,
    args: argparse.Namespace,
    finished: Finished,
    started: float,
    out: TextIO,
    err: TextIO,
    notes: list[str],
) -> int:
    from agent.events import Applied, RunStatus, StopReason, TaskShape

    shape = session.last_run.shape if session.last_run else TaskShape.CHANGE
    await session.wait_baseline()  # the session's, started with it: tests_before says it
    diff = await session.diff()
    patch_failure = _write_patch_out(args.patch_out, diff)
    from agent.headless.submodules import submodule_changes

    submodules = await submodule_changes(session)  # before an apply closes the sandbox
    applied: list[str] = []
    not_applied = ""
    unverified = finished.status is RunStatus.UNVERIFIED
    may_apply = finished.status is RunStatus.DONE or (unverified and args.apply_unverified)
    if args.apply and diff.strip() and may_apply:
        try:
            async for event in session.apply(then_close=True):
                _emit(event, args.output_format, out, err)
                if isinstance(event, Applied):
                    applied = list(event.paths)
            flags = getattr(session.approver, "refused_flags", ())
            if flags:
                raise KilnError(
                    f"Nothing was applied without --apply-flagged: the diff {'; it '.join(flags)}."
                )
        except KilnError as exc:  # refused (edited meanwhile, a link out): nothing is lost
            not_applied = exc.message
            session.notice(f"Not applied: {exc.message}")
            err.write(
                f"kiln: {exc.message} The changes are kept: `kiln apply {session.session_id}` "
                "(or with --3way) writes them later.\n"
            )
    elif args.apply and diff.strip() and unverified:
        err.write(
            f"kiln: nothing was applied, because the change is unverified: {finished.evidence} "
            f"`kiln apply {session.session_id}` (or --apply-unverified) writes it.\n"
        )
    elif args.apply and diff.strip():
        err.write("kiln: the task did not finish, so nothing was applied (see --patch-out).\n")
    # A question's story is its answer: no test digest stands in for it.
    tests_after = session.tests_after
    if shape is not TaskShape.QUESTION:
        tests_after = tests_after or session.tests_before
    from agent.headless.output import final_report
    from agent.run.stops import exit_code_for

    changed = bool(diff.strip())
    code = exit_code_for(finished.stop_reason, finished.status, changed)
    if code and finished.stop_reason is StopReason.DONE and not changed:
        err.write("kiln: nothing changed, and the request asks for a change.\n")
    if not_applied:
        code = ExitCode.TASK_FAILED  # --apply asked for the working tree; it did not change
    from agent.headless.denials import denied_actions

    denied = denied_actions(session.events)
    quiet_end = finished.stop_reason in (StopReason.DONE, StopReason.NOTHING_CHANGED)
    if denied and not changed and quiet_end and code in (ExitCode.OK, ExitCode.TASK_FAILED):
        code = ExitCode.REFUSED  # an empty diff because of refusals is no success in CI
        err.write(
            f"kiln: nothing changed, and {len(denied)} action(s) were refused (see `denied`): "
            f"{denied[0]['what']} ({denied[0]['why']}).\n"
        )
    report = final_report(
        session, finished, diff, applied, tests_after, code, time.monotonic() - started, shape
    )
    store_failure = await asyncio.to_thread(session.store.settle) if session.store else None
    written = None if patch_failure else args.patch_out
    kept = _kept_patch(session, diff, written) if (store_failure or patch_failure) else None
    report["patch_out"] = written
    report["not_applied"] = not_applied or None
    report["denied"] = denied
    report["submodules"] = submodules  # changed in the sandbox, never applied
    report["notes"] = notes
    report["store_error"] = store_failure
    report["patch_kept"] = kept
    if args.output_format == "text":
        out.write(escape_controls(_text_summary(report)) + "\n")
    else:
        out.write(json.dumps(report) + "\n")
    out.flush()
    if finished.stop_reason in (StopReason.MODEL_ERROR, StopReason.SANDBOX_ERROR) or (
        finished.stop_reason is StopReason.APPROVAL_NEEDED
    ):
        err.write(f"kiln: {escape_controls(finished.summary)}\n")
    for failure in (patch_failure, store_failure):
        if failure:
            err.write(f"kiln: {failure}" + (f" The diff is kept in {kept}.\n" if kept else "\n"))
    return code


def _write_patch_out(raw: str | None, diff: str) -> str | None:
    """--patch-out written; a failure (checked writable before the run, full or gone now)
    is one sentence, and the result is printed all the same."""
    if not raw:
        return None
    try:
        from agent.vcs.patches import diff_bytes

        Path(raw).write_bytes(diff_bytes(diff))
    except OSError as exc:
        return f"--patch-out {raw} could not be written after the run ({exc.strerror})."
    return None


def _kept_patch(session: Session, diff: str, written: str | None) -> str | None:
    """The diff as a patch file when the store or --patch-out could not keep it."""
    if written or not diff.strip():
        return written or None
    from agent.store.rescue import keep_patch

    kept = keep_patch(session.repo, session.session_id, diff)
    return str(kept) if kept else None


def _text_summary(report: dict[str, Any]) -> str:
    stats = report["diff_stats"]
    lines = [
        f"{report['status']} ({report['stop_reason']}): {report['summary']}".rstrip(": "),
        f"files changed: {stats['files']} (+{stats['insertions']} -{stats['deletions']})"
        + (f"; applied to {len(report['applied'])} files" if report["applied"] else ""),
    ]
    after = report["tests_after"]
    if after:
        lines.append(
            f"tests: {after['passed']} passed, {after['failed']} failed, {after['errors']} errors"
        )
    if report["evidence"]:
        lines.append(f"evidence: {report['evidence']}")
    for denied in report["denied"]:
        lines.append(f"refused: {denied['what']} ({denied['why']})")
    for job in report["jobs"]:
        lines.append(f"job {job['job_id']} {job['ended']}: {job['command']}")
    lines.append(
        f"usage: {report['usage_line']}; {report['duration_s']:.1f}s; session {report['session_id']}"
    )
    return "\n".join(lines)


__all__ = ["HeadlessApprover", "KilnError", "run_headless"]
