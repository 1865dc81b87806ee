"""Errors a person can cause, each with the exit code `kiln` ends with.

Every message is one sentence that says what to do. Tracebacks are for bugs only.
"""

from __future__ import annotations


class KilnError(Exception):
    """Base of every error shown to the person as one sentence."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class TaskFailed(KilnError):
    exit_code = 1


class UsageError(KilnError):
    exit_code = 2


class ConfigError(KilnError):
    exit_code = 2


class LimitReached(KilnError):
    exit_code = 3


class ApprovalNeeded(KilnError):
    exit_code = 4


class SandboxError(KilnError):
    exit_code = 5


class ModelError(KilnError):
    exit_code = 6


class Interrupted(KilnError):
    exit_code = 130
