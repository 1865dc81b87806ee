"""Errors a person can cause, and the exit codes `kiln` ends with.

Every message is one sentence that says what to do. Tracebacks are for bugs only.
`ExitCode` is the one table of exit codes: errors and run stops both map into it.
"""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    OK = 0
    TASK_FAILED = 1  # tests still failing, or the model stopped without finishing
    USAGE = 2  # usage or configuration error
    LIMIT = 3  # steps, tool calls, tokens, dollars, time, a repeated call, malformed calls
    APPROVAL_NEEDED = 4  # --approval fail met something `ask` mode would ask about
    SANDBOX = 5
    MODEL = 6  # the model backend: server down, requests failing after retries
    # kiln run: nothing changed, and actions were refused (denied by a [permissions] rule,
    # or needing an approval no one gave); the result's `denied` lists them
    REFUSED = 7
    # kiln run: the change finished without evidence that it works (no test that failed
    # before passes now); the result's `evidence` says why, and --apply left it unapplied
    UNVERIFIED = 8
    INTERRUPTED = 130


class KilnError(Exception):
    """Base of every error shown to the person as one sentence."""

    exit_code = ExitCode.TASK_FAILED

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UsageError(KilnError):
    exit_code = ExitCode.USAGE


class ConfigError(KilnError):
    exit_code = ExitCode.USAGE


class SandboxError(KilnError):
    exit_code = ExitCode.SANDBOX


class ModelError(KilnError):
    exit_code = ExitCode.MODEL


class Busy(KilnError):
    """A second thing was asked of a session while it still works on a request."""

    def __init__(self) -> None:
        super().__init__(
            "kiln is still working on a request; wait for it, or interrupt it (Esc), then try again."
        )
