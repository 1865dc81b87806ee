"""The store's writes: each a transaction, kept in order until it is on disk.

A run must never crash, nor stall, because another process holds `kiln.db`: a write that
finds the database locked stays pending and goes out with the next one (or at `settle`,
which waits up to the store's wait). A store that fails otherwise (damaged, read-only,
disk full) keeps its sentence in `failure`; the front end says it and keeps the diff.
"""

from __future__ import annotations

import collections
import contextlib
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from agent.store.failures import describe, is_busy

Statement = tuple[str, tuple[Any, ...]]
# While a run goes on a write waits this long for a lock (another kiln's write holds it
# for milliseconds); longer, it stays pending and the run goes on.
IN_RUN_WAIT_S = 0.2
# A lock SQLite reports busy without waiting (a WAL snapshot gone stale) is tried again
# after this pause, until the wait is used up.
RETRY_PAUSE_S = 0.05


class PendingWrites:
    def __init__(self, db: sqlite3.Connection, path: Path, wait_s: float) -> None:
        self.db = db
        self.path = path
        self.wait_s = wait_s
        self.failure: str | None = None
        self._pending: collections.deque[list[Statement]] = collections.deque()
        self._flushing = threading.Lock()
        self._busy_timeout_ms: int | None = None  # as last set on the connection

    @property
    def pending(self) -> int:
        return len(self._pending)

    def add(self, statements: list[Statement]) -> None:
        """Write now if the database is free; else keep it, in order, for later."""
        self._pending.append(statements)
        # Once a write has waited in vain, the next ones do not wait: the run goes on.
        wait = 0.0 if self.failure else IN_RUN_WAIT_S
        if self._flushing.acquire(blocking=False):  # else a settle is writing: it takes ours
            try:
                self._drain(wait)
            finally:
                self._flushing.release()

    def settle(self, wait_s: float | None = None) -> str | None:
        """Write everything pending, waiting up to the store's wait for a lock; None when
        all is on disk, else the sentence that says why not."""
        with self._flushing:
            self._drain(self.wait_s if wait_s is None else wait_s)
        return self.failure

    def _drain(self, wait_s: float) -> None:
        deadline = time.monotonic() + wait_s
        while self._pending:
            left = max(0.0, deadline - time.monotonic())
            try:
                self._write(self._pending[0], left)
            except sqlite3.Error as exc:
                if is_busy(exc) and time.monotonic() + RETRY_PAUSE_S < deadline:
                    time.sleep(RETRY_PAUSE_S)
                    continue
                self.failure = describe(self.path, exc, wait_s)
                return
            self._pending.popleft()
        self.failure = None

    def _write(self, statements: list[Statement], wait_s: float) -> None:
        busy_timeout_ms = int(wait_s * 1000)
        if busy_timeout_ms != self._busy_timeout_ms:  # one statement less for most writes
            self.db.execute(f"PRAGMA busy_timeout = {busy_timeout_ms}")
            self._busy_timeout_ms = busy_timeout_ms
        # IMMEDIATE takes the write lock first, so a busy database fails before any
        # statement ran and the whole transaction is tried again later, never half of it.
        self.db.execute("BEGIN IMMEDIATE")
        try:
            for sql, params in statements:
                try:
                    self.db.execute(sql, params)
                except UnicodeEncodeError:
                    self.db.execute(sql, tuple(_encodable(p) for p in params))
            self.db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
            raise


def _encodable(param: Any) -> Any:
    """`param` as SQLite takes it. A text that is not UTF-8 through and through (a task or
    a file name holding bytes of another encoding, carried as surrogate escapes) would end
    the write, and with it the run: such a short text is kept with those characters
    replaced. The store keeps long texts (a diff, an output) exactly, as bytes."""
    if not isinstance(param, str):
        return param
    # No regular expression: a class of the surrogates' range takes 1 ms to compile, paid
    # at every start for a write that almost never needs it.
    return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in param)
