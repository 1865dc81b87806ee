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
import signal
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from agent.approval import Action, ApprovalRequest, Decision, Mode, Verdict
from agent.config import Settings, load_settings
from agent.errors import KilnError, SandboxError, UsageError
from agent.events import Event, Finished, StopReason
from agent.headless_output import final_report, render_text
from agent.llm.base import ModelClient
from agent.runstate import exit_code_for
from agent.session import Session, _create_client, _create_sandbox
from agent.store import Store
from sandbox.base import SandboxError as SandboxProblem


class HeadlessApprover:
    """Never waits: writing to the repository was consented to by `--apply`; nothing else asks."""

    def __init__(self, apply: bool) -> None:
        self.apply = apply

    async def decide(self, request: ApprovalRequest) -> Decision:
        if request.action is Action.APPLY and self.apply:
            return Decision(Verdict.APPROVE)
        return Decision(Verdict.REJECT, "no person is present to approve this (headless run)")


def settings_for(args: argparse.Namespace, repo: Path) -> Settings:
    flags = {
        "models.main.base_url": getattr(args, "base_url", None),
        "models.main.model": getattr(args, "model", None),
        "models.main.provider": getattr(args, "provider", None),
        "tests.command": getattr(args, "test_command", None),
        "limits.max_steps": getattr(args, "max_steps", None),
        "limits.budget_usd": getattr(args, "budget_usd", None),
        "limits.timeout_s": getattr(args, "timeout", None),
    }
    return load_settings(repo, {k: v for k, v in flags.items() if v is not None})


def check_repo(raw: str) -> Path:
    repo = Path(raw).expanduser().resolve()
    if not repo.is_dir():
        raise UsageError(f"{raw} is not a directory; pass --repo PATH to a git repository.")
    if not (repo / ".git").exists():
        raise UsageError(f"{repo} is not a git repository; run `git init` there first.")
    return repo


def main(args: argparse.Namespace) -> int:
    repo = check_repo(args.repo)
    settings = settings_for(args, repo)
    if not args.task.strip():
        raise UsageError('The task is empty; say what to do, e.g. kiln run "fix the tests".')
    try:
        return asyncio.run(run_headless(args, repo, settings))
    except SandboxProblem as exc:
        raise SandboxError(str(exc)) from None


async def run_headless(
    args: argparse.Namespace,
    repo: Path,
    settings: Settings,
    *,
    client: ModelClient | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    store: Store | None = None,
) -> int:
    """The whole run; `client`, `out`, `err` and `store` are there for in-process callers."""
    out, err = out or sys.stdout, err or sys.stderr
    started = time.monotonic()
    session = Session(
        settings,
        repo,
        HeadlessApprover(bool(args.apply)),
        Mode(args.approval),
        client=client,
        store=store,
    )
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError, RuntimeError):
        loop.add_signal_handler(signal.SIGINT, session.cancel)
        loop.add_signal_handler(signal.SIGTERM, session.cancel)
    try:
        await _start_overlapped(session)
        await session.start()
        finished = await _drive(session, args, out, err)
        return await _conclude(session, args, finished, started, out, err)
    finally:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.remove_signal_handler(signal.SIGINT)
            loop.remove_signal_handler(signal.SIGTERM)
        await session.close()


def _import_client_modules() -> None:
    # httpx imports its async backend on the first request; that is the first turn's wait.
    for name in (
        "agent.resolve",
        "agent.llm.factory",
        "agent.llm.openai_compat",
        "anyio._backends._asyncio",
    ):
        with contextlib.suppress(ImportError):
            importlib.import_module(name)


async def _start_overlapped(session: Session) -> None:
    """Start the sandbox and set up the model client at the same time: starting the
    container is the longest wait of a short run, and the client's imports, TLS setup and
    reachability probe fit inside it. Session.start() then finds both ready."""

    async def start_sandbox() -> None:
        if session.sandbox is None:  # importing the backend is slow too: off the loop
            session.sandbox = await asyncio.to_thread(
                _create_sandbox, session.repo, session.settings, session.session_id
            )
        await session.sandbox.start()

    async def create_client() -> None:
        if session.client is None:
            # Import in a thread too, or the imports would hold up the sandbox's next step.
            await asyncio.to_thread(_import_client_modules)
            session.client = await _create_client(session.settings)

    # The sandbox goes first: its thread is under way before the client's imports block
    # the loop. Both run to the end before an error is raised, so close() knows every
    # container; a model problem is reported before a sandbox one.
    sandbox_started, client_created = await asyncio.gather(
        start_sandbox(), create_client(), return_exceptions=True
    )
    for outcome in (client_created, sandbox_started):
        if isinstance(outcome, BaseException):
            raise outcome


async def _drive(session: Session, args: argparse.Namespace, out: TextIO, err: TextIO) -> Finished:
    finished: Finished | None = None
    async for event in session.run(args.task):
        _emit(event, args.output_format, out, err)
        if isinstance(event, Finished):
            finished = event
    assert finished is not None, "the loop always ends with Finished"
    return finished


def _emit(event: Event, fmt: str, out: TextIO, err: TextIO) -> None:
    if fmt == "stream-json":
        out.write(json.dumps(event.to_dict()) + "\n")
        out.flush()
    elif fmt == "text":
        line = render_text(event)
        if line:
            err.write(line + "\n")
            err.flush()


async def _conclude(
    session: Session,
    args: argparse.Namespace,
    finished: Finished,
    started: float,
    out: TextIO,
    err: TextIO,
) -> int:
    await session.wait_baseline()
    diff = await session.diff()
    if args.patch_out:
        Path(args.patch_out).write_text(diff, encoding="utf-8")
    applied: list[str] = []
    if args.apply and diff.strip() and finished.stop_reason is StopReason.DONE:
        applied = await session.apply()
    elif args.apply and diff.strip():
        err.write("kiln: the task did not finish, so nothing was applied (see --patch-out).\n")
    tests_after = session.tests_after or session.tests_before
    code = exit_code_for(finished.stop_reason, tests_after)
    report = final_report(
        session, finished, diff, applied, tests_after, code, time.monotonic() - started
    )
    report["patch_out"] = args.patch_out
    if args.output_format == "text":
        out.write(_text_summary(report) + "\n")
    else:
        out.write(json.dumps(report) + "\n")
    out.flush()
    if finished.stop_reason in (StopReason.MODEL_ERROR, StopReason.SANDBOX_ERROR) or (
        finished.stop_reason is StopReason.APPROVAL_NEEDED
    ):
        err.write(f"kiln: {finished.summary}\n")
    return code


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
    lines.append(
        f"usage: {report['usage_line']}; {report['duration_s']:.1f}s; session {report['session_id']}"
    )
    return "\n".join(lines)


__all__ = ["HeadlessApprover", "KilnError", "main", "run_headless"]
