"""What `kiln run` checks and reads before anything starts: the repository, the settings,
the task, the flags. Light to import: the sandbox's container is asked for right after
this (agent/headless/start.py), before the session's modules load."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from agent.errors import UsageError
from agent.settings import trust
from agent.settings.config import Settings
from agent.settings.flags import settings_for
from agent.settings.repo import find_repo

MAX_ATTEMPTS = 16  # `--attempts`: each one a sandbox and a model run


def prepare(args: argparse.Namespace) -> tuple[Path, Settings]:
    """What `kiln run` checks and reads before anything starts: the repository, the
    settings, the task (a custom command's name becomes its prompt), the flags."""
    repo = find_repo(args.repo)
    settings = settings_for(args, repo)
    args.task = read_task(args)
    if args.task.lstrip().startswith("/"):  # a custom command's name: its prompt
        from agent.custom.commands import as_task

        args.task, said = as_task(repo, args.task, ())
        if said:
            print(said, file=sys.stderr)
    check_patch_out(args.patch_out)
    if getattr(args, "commit", False) and not args.apply:
        raise UsageError("--commit commits what --apply writes; add --apply.")
    attempts = getattr(args, "attempts", 1)
    if not 1 <= attempts <= MAX_ATTEMPTS:
        raise UsageError(f"--attempts takes 1 to {MAX_ATTEMPTS}; {attempts} was given.")
    # One run in text prints its session's start notes on stderr, this one among them;
    # attempts run as JSON beneath, so their text says it here, once for all of them.
    if args.output_format != "text" or attempts > 1:
        _say_ignored_runs(repo, settings)
    return repo, settings


def read_task(args: argparse.Namespace) -> str:
    """The task: the argument, `--task-file FILE`, or `-` for standard input (a task may be
    longer than the system lets one argument be)."""
    if args.task_file:
        try:
            task = Path(args.task_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"The task file {args.task_file} cannot be read ({exc}).") from None
    elif args.task == "-":
        task = sys.stdin.read()
    else:
        task = args.task or ""
    if not task.strip():
        raise UsageError(
            'The task is empty; say what to do: kiln run "fix the tests", --task-file FILE, '
            "or - to read it from standard input."
        )
    return task


def check_patch_out(raw: str | None) -> None:
    """Fail before the run, not after it, when the patch cannot be written."""
    if not raw:
        return
    target = Path(raw).expanduser().resolve()
    parent = target.parent
    if target.is_dir() or not parent.is_dir() or not os.access(parent, os.W_OK):
        raise UsageError(
            f"--patch-out {raw} cannot be written; give a file in a writable directory."
        )
    if target.exists() and not os.access(target, os.W_OK):
        raise UsageError(f"--patch-out {raw} is not writable; give another file.")
    # Permissions alone say yes to /proc and to root everywhere: only opening it tells.
    existed = target.exists()
    try:  # O_NONBLOCK: a FIFO with no reader is refused, not waited on
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NONBLOCK))
    except OSError as exc:
        raise UsageError(
            f"--patch-out {raw} cannot be written ({exc.strerror}); give a file in a "
            "writable directory."
        ) from None
    if not existed:
        target.unlink(missing_ok=True)


def _say_ignored_runs(repo: Path, settings: Settings) -> None:
    """What an untrusted repository would run, which kiln ignores, named once before
    anything starts (stdout is the scripts'): the session's start notes say it too, in
    the stream and the result's `notes`."""
    said = trust.ignored_runs(repo, settings.ignored)
    if said:
        print(f"kiln: {said}", file=sys.stderr, flush=True)
