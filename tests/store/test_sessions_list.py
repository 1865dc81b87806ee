"""The store's list and lookup by id: newest first from an index, ids found by prefix with
a query, an old store migrated in place."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from agent.approval import Mode
from agent.events import Finished, SessionStarted, StopReason, TurnStarted
from agent.llm.base import Message
from agent.store.db import LISTED, Store


def _stored(store: Store, session_id: str, *, diff: str = "", finish: bool = True) -> None:
    store.record(
        session_id, SessionStarted(session_id, "/repo", f"task {session_id}", "m", Mode.ASK)
    )
    store.record(session_id, TurnStarted(1))
    if finish:
        store.record(session_id, Finished("done", StopReason.DONE, "ok", steps=1))
    store.save_state(session_id, [Message("user", "x" * 5000)], diff)
    store.settle()


def test_the_list_is_newest_first_and_reads_only_its_index(tmp_path: Path) -> None:
    store = Store(tmp_path / "kiln.db")
    ids = [f"s{n:04d}" for n in range(120)]
    for session_id in ids:
        _stored(store, session_id)
    _stored(store, "s0005")  # touched again: now the newest
    rows = store.sessions()
    assert len(rows) == 50
    assert rows[0].id == "s0005"
    assert [r.id for r in rows[1:4]] == ["s0119", "s0118", "s0117"]
    assert [r.updated for r in rows] == sorted((r.updated for r in rows), reverse=True)
    plan = store.db.execute(f"EXPLAIN QUERY PLAN {LISTED} INDEXED BY sessions_listed "
                            "ORDER BY updated DESC LIMIT 50").fetchall()  # fmt: skip
    assert "COVERING INDEX sessions_listed" in str(plan)  # the big columns never read


def test_find_by_id_unique_prefix_ambiguous_prefix_and_last(tmp_path: Path) -> None:
    store = Store(tmp_path / "kiln.db")
    for session_id in ("abc123", "abd456", "b00001", "b00002"):
        _stored(store, session_id)
    found = store.find("abc")
    assert found is not None and found.id == "abc123"
    assert store.find("abc123") is not None
    assert store.find("ab") is None  # two match: none is chosen
    assert store.find("b0000") is None
    assert store.find("zzz") is None
    assert store.find("") is None
    last = store.find("last")
    assert last is not None and last.id == "b00002"
    assert store.find("b00001") is not None and store.find("b00001").id == "b00001"  # type: ignore[union-attr]


def test_a_done_session_with_a_diff_it_kept_is_listed_not_applied(tmp_path: Path) -> None:
    store = Store(tmp_path / "kiln.db")
    _stored(store, "kept", diff="diff --git a/x b/x\n")
    _stored(store, "clean")
    outcomes = {r.id: r.outcome for r in store.sessions()}
    assert outcomes == {"kept": "done, not applied", "clean": "done"}


def test_an_old_store_is_migrated_in_place(tmp_path: Path) -> None:
    path = tmp_path / "kiln.db"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE sessions (id TEXT PRIMARY KEY, created REAL, updated REAL, repo TEXT, "
        "model TEXT, mode TEXT, title TEXT, status TEXT, stop_reason TEXT, "
        "steps INTEGER DEFAULT 0, uncached INTEGER DEFAULT 0, cached INTEGER DEFAULT 0, "
        "cache_write INTEGER DEFAULT 0, output INTEGER DEFAULT 0, cost_usd REAL DEFAULT 0, "
        "diff TEXT DEFAULT '', messages TEXT DEFAULT '[]');"
        "INSERT INTO sessions (id, created, updated, repo, title, status, diff) VALUES "
        "('old1', 1, 1, '/r', 'first', 'done', 'diff --git a/x b/x'), "
        "('old2', 2, 2, '/r', 'second', 'done', '');"
    )
    old.commit()
    old.close()
    store = Store(path)
    rows = store.sessions()
    assert [(r.id, r.outcome) for r in rows] == [("old2", "done"), ("old1", "done, not applied")]
    indexes = {row[1] for row in store.db.execute("PRAGMA index_list(sessions)")}
    assert "sessions_listed" in indexes
    found = store.find("old1")
    assert found is not None and found.title == "first"
