"""Sessions, their events, model requests, tool calls, approvals and stops, in SQLite.

One database in the XDG data dir (`kiln.db`). Every event the loop yields is kept, except
the streamed deltas (the AssistantMessage that ends each turn holds the same text) and the
meter's estimates while a reply streams. The conversation and the final diff are kept too,
so `--resume` can rebuild both the prompt and the workspace.

The store never ends a run: a write that finds the database locked waits briefly, then
stays pending (`writes.py`); a store that cannot be opened or read is one sentence
(`StoreError`); `settle()` says whether everything reached the disk.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ParamSpec, TypeVar, assert_never

from agent.approval import Verdict
from agent.events import (
    ActionDenied,
    Applied,
    ApprovalRequested,
    ApprovalResolved,
    AssistantMessage,
    CandidatesTried,
    Checkpointed,
    Compacted,
    Event,
    FilesChanged,
    Finished,
    HookRan,
    JobStarted,
    JobStopped,
    ModeChanged,
    ModelChanged,
    Notice,
    PhaseChanged,
    PlanUpdated,
    ReasoningDelta,
    SessionStarted,
    SubagentFinished,
    SubagentStarted,
    TaskShaped,
    TestsRan,
    TextDelta,
    ToolCallFinished,
    ToolCallStarted,
    TurnStarted,
    Usage,
    UsageUpdated,
    WindowUsed,
)
from agent.llm.base import Message, ToolCall, ToolSpec
from agent.llm.request import ModelRequest
from agent.settings import paths
from agent.store.failures import StoreError, describe, store_wait_s
from agent.store.writes import PendingWrites, Statement
from agent.vcs.patches import diff_bytes, diff_from_bytes
from sandbox.frozen import frozen

P = ParamSpec("P")
R = TypeVar("R")

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY, created REAL, updated REAL, repo TEXT, model TEXT, mode TEXT,
  title TEXT, status TEXT, stop_reason TEXT, steps INTEGER DEFAULT 0,
  uncached INTEGER DEFAULT 0, cached INTEGER DEFAULT 0, cache_write INTEGER DEFAULT 0,
  output INTEGER DEFAULT 0, cost_usd REAL DEFAULT 0, diff TEXT DEFAULT '',
  messages TEXT DEFAULT '[]', pid INTEGER, run_steps INTEGER DEFAULT 0);
CREATE TABLE IF NOT EXISTS events (
  session_id TEXT, seq INTEGER, ts REAL, type TEXT, data TEXT, PRIMARY KEY (session_id, seq));
CREATE TABLE IF NOT EXISTS requests (
  session_id TEXT, ts REAL, uncached INTEGER, cached INTEGER, cache_write INTEGER,
  output INTEGER, ttft_s REAL, duration_s REAL, cost_usd REAL, step INTEGER, role TEXT,
  model TEXT, messages TEXT, tools TEXT, reply TEXT);
CREATE TABLE IF NOT EXISTS tool_calls (
  session_id TEXT, call_id TEXT, name TEXT, arguments TEXT, ok INTEGER, output TEXT,
  duration_s REAL, exit_code INTEGER, started REAL, PRIMARY KEY (session_id, call_id));
CREATE TABLE IF NOT EXISTS approvals (
  session_id TEXT, request_id TEXT, action TEXT, summary TEXT, decision TEXT, reason TEXT,
  ts REAL, PRIMARY KEY (session_id, request_id));
CREATE TABLE IF NOT EXISTS blobs (hash TEXT PRIMARY KEY, text TEXT);
CREATE TABLE IF NOT EXISTS stops (
  session_id TEXT, ts REAL, status TEXT, stop_reason TEXT, summary TEXT, steps INTEGER,
  tool_calls INTEGER, cost_usd REAL, duration_s REAL);
"""
# Texts at least this long (a file written whole, a long output) are kept once, in
# `blobs`, and referred to by hash from the event, the tool call and the conversation.
BLOB_MIN_CHARS = 2048
BLOB_KEY = "$blob"
NOT_APPLIED = "Not applied: "  # the notice a front end records when an apply is refused
# `kiln sessions list` reads only this index, in its order: never the table's rows, whose
# conversation and diff (megabytes in a long session) lie before the columns added later,
# so reading those walks the big ones' overflow pages. Made on open, an old store too.
LIST_COLUMNS = (
    "id, created, repo, model, mode, title, status, stop_reason, steps, run_steps, cost_usd, "
    "uncached, cached, cache_write, output, landing, has_diff, pid"
)
LIST_INDEX = (
    f"CREATE INDEX IF NOT EXISTS sessions_listed ON sessions (updated DESC, {LIST_COLUMNS})"
)
LISTED = (
    "SELECT id, created, updated, repo, model, mode, title, COALESCE(status, ''), "
    "COALESCE(stop_reason, ''), steps + COALESCE(run_steps, 0), cost_usd, "
    "uncached + cached + cache_write + output, "
    "COALESCE(landing, CASE WHEN status IN ('done', 'unverified') AND has_diff THEN 'not applied' ELSE '' END), "
    "pid FROM sessions"
)
# Columns added since the first schema, by table; older databases get them on open.
# A request's cost_usd is its own (NULL: the price was unknown); rows from before `model`
# existed hold the session's running total there instead.
ADDED_COLUMNS = {
    # landing: what became of the last run's diff: applied | refused | not applied
    "sessions": {
        "pid": "INTEGER",
        "run_steps": "INTEGER DEFAULT 0",
        "landing": "TEXT",
        "has_diff": "INTEGER DEFAULT 0",  # diff != '', so the list need not read the diff
    },
    "requests": {
        "step": "INTEGER",
        "role": "TEXT",
        "model": "TEXT",
        "messages": "TEXT",  # a JSON list of message hashes (blobs), system prompt first
        "tools": "TEXT",  # the hash of the tool schemas sent
        "reply": "TEXT",  # the hash of the reply
        "reasoning": "INTEGER DEFAULT 0",  # of `output`: a thinking model's reasoning tokens
    },
}


def default_path() -> Path:
    return paths.data_dir() / "kiln.db"


@frozen
class SessionRow:
    """One stored session as listed: its repository, model, title, how it ended and its cost."""

    id: str
    created: float
    updated: float
    repo: str
    model: str
    mode: str
    title: str
    status: str
    stop_reason: str
    steps: int
    cost_usd: float | None  # None: a model's price was unknown
    tokens: int
    landing: str = ""  # applied | refused | not applied; "" when nothing was offered

    @property
    def outcome(self) -> str:
        """What actually happened: "done" alone hides an apply that was refused."""
        status = self.status or "open"
        return f"{status}, {self.landing}" if self.landing else status


def _read(method: Callable[P, R]) -> Callable[P, R]:
    """A read of a damaged or vanished store ends in its one sentence, not a traceback."""

    @functools.wraps(method)
    def reading(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except sqlite3.Error as exc:
            store = args[0]
            assert isinstance(store, Store)
            raise StoreError(describe(store.path, exc, store.wait_s)) from None

    return reading


class Store:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()
        self.wait_s = store_wait_s()
        try:
            self.db = self._open()
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(describe(self.path, exc, self.wait_s)) from None
        self._writes = PendingWrites(self.db, self.path, self.wait_s)
        self._seq: dict[str, int] = {}
        # The usage of the request recorded last, per session: its UsageUpdated follows and
        # adds no second row. A request nobody recorded (no hook) still gets a row from it.
        self._awaiting_usage: dict[str, Usage] = {}

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(
            self.path, isolation_level=None, check_same_thread=False, timeout=self.wait_s
        )
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(SCHEMA)
            for table, columns in ADDED_COLUMNS.items():
                have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
                for name, kind in columns.items():
                    if name not in have:
                        db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")
                        if name == "has_diff":  # once, for the sessions stored before it
                            db.execute("UPDATE sessions SET has_diff = (diff != '')")
            db.execute(LIST_INDEX)
            # A read-only file opens and reads fine; its first write would fail mid-run.
            if not os.access(self.path, os.W_OK):
                raise PermissionError(f"{self.path.name} is read-only")
        except BaseException:
            db.close()
            raise
        return db

    @property
    def failure(self) -> str | None:
        """Why writes are pending (locked, damaged, read-only), or None: all on disk."""
        return self._writes.failure

    def settle(self) -> str | None:
        """Write whatever is pending, waiting out a lock up to the store's wait; None when
        everything is on disk, else the sentence that says why it is not."""
        return self._writes.settle()

    def close(self) -> None:
        self._writes.settle()
        self.db.close()

    # --- writing --------------------------------------------------------------------

    def record(self, session_id: str, event: Event) -> None:
        if isinstance(event, TextDelta | ReasoningDelta):
            return
        if isinstance(event, UsageUpdated) and event.estimated:
            return
        now = time.time()
        writes: list[Statement] = []
        try:
            seq = self._next_seq(session_id)
        except sqlite3.Error as exc:  # damaged: the run goes on, the front end says so
            self._writes.failure = describe(self.path, exc, self.wait_s)
            return
        data = self._pack(event.to_dict(), writes)
        writes.append(
            ("INSERT INTO events VALUES (?, ?, ?, ?, ?)", (session_id, seq, now, event.kind, data))
        )
        self._index(session_id, event, now, writes)
        self._writes.add(writes)

    def _next_seq(self, session_id: str) -> int:
        if session_id not in self._seq:
            row = self.db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE session_id = ?", (session_id,)
            ).fetchone()
            self._seq[session_id] = row[0]
        self._seq[session_id] += 1
        return self._seq[session_id]

    def _index(self, sid: str, event: Event, now: float, writes: list[Statement]) -> None:
        """Keep the queryable tables in step with the event log."""

        def x(sql: str, params: tuple[Any, ...]) -> None:
            writes.append((sql, params))

        match event:
            case SessionStarted():
                x(
                    "INSERT INTO sessions (id, created, updated, repo, model, mode, title) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET updated = ?",
                    (sid, now, now, event.repo, event.model, event.mode, event.task[:200], now),
                )
            case TurnStarted() | PhaseChanged():
                # A run is in flight: `kiln sessions list` shows it running, with its steps so
                # far; the pid tells a live run from one whose process was killed.
                x(
                    "UPDATE sessions SET updated = ?, status = 'running', stop_reason = NULL, "
                    "pid = ?, run_steps = MAX(run_steps, ?) WHERE id = ?",
                    (now, os.getpid(), event.step if isinstance(event, TurnStarted) else 0, sid),
                )
                if isinstance(event, TurnStarted):  # new work: the last run's landing is past
                    x("UPDATE sessions SET landing = NULL WHERE id = ?", (sid,))
            case UsageUpdated():
                u = event.last
                if self._awaiting_usage.pop(sid, None) != u:
                    x(
                        "INSERT INTO requests (session_id, ts, uncached, cached, cache_write, "
                        "output, ttft_s, duration_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (sid, now, u.uncached_input, u.cached_input, u.cache_write, u.output,
                         event.ttft_s, event.duration_s),
                    )  # fmt: skip
                t = event.total
                x(
                    "UPDATE sessions SET updated = ?, uncached = ?, cached = ?, cache_write = ?, "
                    "output = ?, cost_usd = ? WHERE id = ?",
                    (now, t.uncached_input, t.cached_input, t.cache_write, t.output,
                     event.cost_usd, sid),
                )  # fmt: skip
            case ToolCallStarted():
                x(
                    "INSERT OR REPLACE INTO tool_calls (session_id, call_id, name, arguments, "
                    "started) VALUES (?, ?, ?, ?, ?)",
                    (sid, event.call_id, event.name, self._pack(event.arguments, writes), now),
                )
            case ToolCallFinished():
                x(
                    "UPDATE tool_calls SET ok = ?, output = ?, duration_s = ?, exit_code = ? "
                    "WHERE session_id = ? AND call_id = ?",
                    (event.ok, self._pack(event.output, writes), event.duration_s, event.exit_code, sid,
                     event.call_id),
                )  # fmt: skip
            case ApprovalRequested():
                x(
                    "INSERT OR REPLACE INTO approvals (session_id, request_id, action, summary, ts) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (sid, event.request_id, event.action, event.summary, now),
                )
            case ApprovalResolved():
                x(
                    "UPDATE approvals SET decision = ?, reason = ? "
                    "WHERE session_id = ? AND request_id = ?",
                    (event.decision, event.reason, sid, event.request_id),
                )
                if event.decision == Verdict.REJECT:
                    x(
                        "UPDATE sessions SET landing = 'refused' WHERE id = ? AND EXISTS (SELECT 1 "
                        "FROM approvals WHERE session_id = ? AND request_id = ? AND action = 'apply')",
                        (sid, sid, event.request_id),
                    )
            case Applied() if event.paths or not event.approved:
                landing = "applied" if event.approved else "refused"
                x("UPDATE sessions SET landing = ? WHERE id = ?", (landing, sid))
            case Notice() if event.message.startswith(NOT_APPLIED):
                # An apply refused on the way in (the person's edits, a link out of the tree).
                x("UPDATE sessions SET landing = 'not applied' WHERE id = ?", (sid,))
            case Finished():
                x(
                    "INSERT INTO stops VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (sid, now, event.status, event.stop_reason.value, event.summary, event.steps,
                     event.tool_calls, event.cost_usd, event.duration_s),
                )  # fmt: skip
                x(
                    "UPDATE sessions SET updated = ?, status = ?, stop_reason = ?, "
                    "steps = steps + ?, pid = NULL, run_steps = 0 WHERE id = ?",
                    (now, event.status, event.stop_reason.value, event.steps, sid),
                )
            case (
                Applied() | Notice() | TextDelta() | ReasoningDelta() | TaskShaped()
                | AssistantMessage() | PlanUpdated() | FilesChanged() | TestsRan() | Compacted()
                | CandidatesTried() | WindowUsed() | Checkpointed() | ModeChanged()
                | ModelChanged() | HookRan() | ActionDenied() | SubagentStarted()
                | SubagentFinished() | JobStarted() | JobStopped()
            ):  # fmt: skip
                pass  # in the event log only
            case _:
                assert_never(event)

    def record_request(self, session_id: str, request: ModelRequest) -> None:
        """One model request: its usage and price, and what the model saw and said. Each
        message is kept once, by hash, so a request costs its new messages, not its prefix."""
        u = request.usage
        writes: list[Statement] = []
        hashes = [self._kept(_message_dict(m), writes) for m in request.messages]
        tools = self._kept([_spec_dict(t) for t in request.tools], writes)
        writes.append(
            (
                "INSERT INTO requests (session_id, ts, uncached, cached, cache_write, output, "
                "ttft_s, duration_s, cost_usd, step, role, model, messages, tools, reply, "
                "reasoning) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (session_id, time.time(), u.uncached_input, u.cached_input, u.cache_write,
                 u.output, request.ttft_s, request.duration_s, request.cost_usd, request.step,
                 request.role, request.model, json.dumps(hashes), tools,
                 self._kept(_message_dict(request.reply), writes), u.reasoning),
            )
        )  # fmt: skip
        self._writes.add(writes)
        self._awaiting_usage[session_id] = u

    def _kept(self, value: Any, writes: list[Statement]) -> str:
        """Store `value` (its long texts as their own blobs) once; returns its hash."""
        packed = self._pack(value, writes)
        digest = hashlib.sha256(packed.encode("utf-8", "surrogatepass")).hexdigest()
        writes.append(("INSERT OR IGNORE INTO blobs VALUES (?, ?)", (digest, packed)))
        return digest

    def _kept_value(self, digest: str | None) -> Any:
        if not digest:
            return None
        row = self.db.execute("SELECT text FROM blobs WHERE hash = ?", (digest,)).fetchone()
        return self._unpack(json.loads(row[0])) if row else None

    def save_state(self, session_id: str, messages: list[Message], diff: str) -> None:
        """The conversation and the workspace diff, what `--resume` needs to carry on."""
        writes: list[Statement] = []
        packed = self._pack([_message_dict(m) for m in messages], writes)
        writes.append(
            (
                "UPDATE sessions SET messages = ?, diff = ?, has_diff = ?, updated = ? "
                "WHERE id = ?",
                # As its bytes: a diff of a file that is not UTF-8 (a Latin-1 source) holds
                # bytes no text column takes, and `kiln apply` must get them back as they were.
                (packed, diff_bytes(diff), bool(diff), time.time(), session_id),
            )
        )
        self._writes.add(writes)

    # --- reading --------------------------------------------------------------------

    @_read
    def sessions(self, limit: int = 50) -> list[SessionRow]:
        """The most recently updated first, from the list's index alone."""
        rows = self.db.execute(
            f"{LISTED} INDEXED BY sessions_listed ORDER BY updated DESC LIMIT ?", (limit,)
        ).fetchall()
        return [_row(*row) for row in rows]

    @_read
    def find(self, session_id: str) -> SessionRow | None:
        """By id, unique id prefix, or "last" for the most recently updated session."""
        if session_id == "last":
            newest = self.sessions(1)
            return newest[0] if newest else None
        if not session_id:
            return None
        # The ids that start with it, as a range of the primary key: two rows at most.
        matches = self.db.execute(
            f"{LISTED} WHERE id >= ? AND id < ? LIMIT 2", (session_id, session_id + "\U0010ffff")
        ).fetchall()
        return _row(*matches[0]) if len(matches) == 1 else None

    @_read
    def events(self, session_id: str, last: int | None = None) -> list[dict[str, Any]]:
        """The session's events in order; with `last`, only that many at its end."""
        rows = self.db.execute(
            "SELECT data FROM (SELECT seq, data FROM events WHERE session_id = ? "
            "ORDER BY seq DESC LIMIT ?) ORDER BY seq",
            (session_id, -1 if last is None else last),
        ).fetchall()
        # Only an event that refers to a blob needs walking (most do not).
        return [
            self._unpack(json.loads(data)) if BLOB_KEY in data else json.loads(data)
            for (data,) in rows
        ]

    @_read
    def requests(self, session_id: str) -> list[dict[str, Any]]:
        """Each request's usage, price, step, role and model, in order (hashes left out)."""
        cursor = self.db.execute(
            "SELECT session_id, ts, uncached, cached, cache_write, output, ttft_s, duration_s, "
            "cost_usd, step, role, model, reasoning FROM requests WHERE session_id = ? "
            "ORDER BY rowid",
            (session_id,),
        )
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    @_read
    def exchanges(self, session_id: str) -> list[dict[str, Any]]:
        """What each request sent (messages and tool schemas) and got back, in order; None
        for requests recorded before kiln kept them."""
        rows = self.db.execute(
            "SELECT messages, tools, reply FROM requests WHERE session_id = ? ORDER BY rowid",
            (session_id,),
        ).fetchall()
        return [
            {
                "messages": [self._kept_value(h) for h in json.loads(hashes)] if hashes else None,
                "tools": self._kept_value(tools),
                "reply": self._kept_value(reply),
            }
            for hashes, tools, reply in rows
        ]

    @_read
    def state(self, session_id: str) -> tuple[list[Message], str]:
        row = self.db.execute(
            "SELECT messages, diff FROM sessions WHERE id = ?", (session_id,)
        ).fetchone()
        if row is None:
            return [], ""
        messages = self._unpack(json.loads(row[0] or "[]"))
        diff = row[1] or ""  # text in the rows kept before diffs were kept as bytes
        return [_message_from(d) for d in messages], (
            diff_from_bytes(diff) if isinstance(diff, bytes) else diff
        )

    # --- big texts, once ------------------------------------------------------------

    def _pack(self, value: Any, writes: list[Statement]) -> str:
        """JSON of `value` with each long text stored once in `blobs`, referred to by hash;
        the blobs' inserts join `writes`, the transaction that refers to them."""
        return json.dumps(_blobbed(value, writes))

    def _unpack(self, value: Any) -> Any:
        if isinstance(value, dict):
            if len(value) == 1 and BLOB_KEY in value:
                row = self.db.execute(
                    "SELECT text FROM blobs WHERE hash = ?", (value[BLOB_KEY],)
                ).fetchone()
                return _text_of(row[0]) if row else ""
            return {k: self._unpack(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self._unpack(v) for v in value]
        return value


def _blobbed(value: Any, writes: list[Statement]) -> Any:
    if isinstance(value, str) and len(value) >= BLOB_MIN_CHARS:
        kept, encoded = _storable(value)
        digest = hashlib.sha256(encoded).hexdigest()
        writes.append(("INSERT OR IGNORE INTO blobs VALUES (?, ?)", (digest, kept)))
        return {BLOB_KEY: digest}
    if isinstance(value, dict):
        return {k: _blobbed(v, writes) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_blobbed(v, writes) for v in value]
    return value


def _storable(text: str) -> tuple[str | bytes, bytes]:
    """A long text as SQLite can keep it, and its UTF-8: a text that is not UTF-8 through
    and through (a diff or an output holding a Latin-1 file's bytes, carried as surrogate
    escapes) is kept as its bytes, which no text column takes, so it comes back exactly as
    it was (`_text_of`)."""
    try:
        return text, text.encode("utf-8")
    except UnicodeEncodeError:
        encoded = text.encode("utf-8", "surrogatepass")
        return encoded, encoded


def _text_of(kept: str | bytes) -> str:
    return kept.decode("utf-8", "surrogatepass") if isinstance(kept, bytes) else kept


def _row(*columns: Any) -> SessionRow:
    *fields, pid = columns
    fields[7] = _live_status(fields[7], pid)
    return SessionRow(*fields)


def _live_status(status: str, pid: int | None) -> str:
    """ "running" only while the process running it lives; a killed run shows "interrupted"."""
    if status != "running":
        return status
    if pid is None:
        return "interrupted"
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return "interrupted"
    except PermissionError:
        pass  # alive, another user's
    return status


def _call_dict(call: ToolCall) -> dict[str, Any]:
    data = {"id": call.id, "name": call.name, "arguments": call.arguments}
    return {**data, "extra": call.extra} if call.extra else data


def _message_dict(message: Message) -> dict[str, Any]:
    data: dict[str, Any] = {
        "role": message.role,
        "content": message.content,
        "tool_calls": [_call_dict(c) for c in message.tool_calls],
        "tool_call_id": message.tool_call_id,
        "name": message.name,
    }
    if message.cache_breakpoint:  # part of what was sent (Anthropic's cache_control)
        data["cache_breakpoint"] = True
    # What the server wants back on the next request: a resumed session sends it too.
    if message.reasoning:
        data["reasoning"] = message.reasoning
    if message.replay:
        data["replay"], data["replay_api"] = list(message.replay), message.replay_api
    return data


def _spec_dict(spec: ToolSpec) -> dict[str, Any]:
    return {"name": spec.name, "description": spec.description, "parameters": spec.parameters}


def _message_from(data: dict[str, Any]) -> Message:
    calls = tuple(
        ToolCall(c["id"], c["name"], c["arguments"], extra=c.get("extra"))
        for c in data.get("tool_calls", [])
    )
    return Message(
        data["role"],
        data.get("content", ""),
        tool_calls=calls,
        tool_call_id=data.get("tool_call_id"),
        name=data.get("name"),
        reasoning=data.get("reasoning", ""),
        replay=tuple(data.get("replay", ())),
        replay_api=data.get("replay_api", ""),
    )
