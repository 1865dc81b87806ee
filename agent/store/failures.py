"""What a failing session store means to a person, in one sentence.

The store is kiln's record, never the work itself: a store that is locked, damaged or
read-only must cost the person a sentence, not the run (see `writes.py`, `db.py`).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from agent.errors import ExitCode, KilnError

# How long a write waits for another process's lock before kiln says so: a lock held for
# about ten seconds (a `sqlite3` shell, a backup) is waited out. KILN_STORE_WAIT_S sets it
# (tests use a short wait); it is the person's environment, never a repository's file.
DEFAULT_WAIT_S = 30.0


def store_wait_s() -> float:
    raw = os.environ.get("KILN_STORE_WAIT_S", "")
    try:
        return max(0.0, float(raw)) if raw else DEFAULT_WAIT_S
    except ValueError:
        return DEFAULT_WAIT_S


class StoreError(KilnError):
    """The session store cannot be opened, read or written."""

    exit_code = ExitCode.USAGE  # the person's environment: their store needs their hand


def is_busy(exc: BaseException) -> bool:
    """Another connection holds the lock: waiting (or trying later) may succeed."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return True
    return isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc)


def describe(path: Path, exc: BaseException, waited_s: float = 0.0) -> str:
    """One sentence for a store failure, saying what to do about it."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    if is_busy(exc):
        return (
            f"The session store {path} stayed locked by another program for {waited_s:g} s; "
            "close whatever holds it and try again."
        )
    if name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")):
        return (
            f"The session store {path} is damaged ({exc}); move it aside and kiln starts a new one."
        )
    if name.startswith("SQLITE_FULL"):
        return f"The disk holding the session store {path} is full; free some space."
    if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")) or (
        isinstance(exc, OSError)
    ):
        return (
            f"The session store {path} cannot be written ({exc}); make it and its folder "
            "writable, or set XDG_DATA_HOME to another folder."
        )
    return f"The session store {path} failed ({exc}); move it aside and kiln starts a new one."
