"""Every request's messages kept once by hash, its reply, and the old schema migrated."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from agent.events import SessionStarted, Usage, UsageUpdated
from agent.llm.base import Message, ToolCall, ToolSpec
from agent.llm.request import ModelRequest
from agent.store.db import Store

TOOLS = (ToolSpec("read_file", "Read a file.", {"type": "object"}),)
BIG = "x = 1\n" * 1000  # a long tool output: a blob of its own


def conversation(steps: int) -> list[list[Message]]:
    """What each of `steps` requests sent: the same prefix, one exchange longer each time."""
    sent: list[list[Message]] = []
    history = [Message("system", "You are kiln.", cache_breakpoint=True), Message("user", "fix")]
    for step in range(steps):
        sent.append(list(history))
        call = ToolCall(f"c{step}", "read_file", {"path": f"f{step}.py"})
        history += [
            Message("assistant", "", tool_calls=(call,)),
            Message("tool", BIG + str(step), tool_call_id=call.id, name="read_file"),
        ]
    return sent


def request(step: int, messages: list[Message], usage: Usage) -> ModelRequest:
    reply = Message("assistant", f"reply {step}")
    return ModelRequest(step, "main", "m", tuple(messages), TOOLS, reply, usage, 0.001)


def test_each_message_is_stored_once_and_each_request_reads_back_whole(tmp_path: Path) -> None:
    store = Store(tmp_path / "kiln.db")
    store.record("s1", SessionStarted("s1", "/r", "fix", "m", "ask"))
    sent = conversation(30)
    for step, messages in enumerate(sent, 1):
        usage = Usage(10, step, 0, 5)
        store.record_request("s1", request(step, messages, usage))
        store.record("s1", UsageUpdated(usage, usage, 0.001))  # pairs with it: no second row
    rows = store.requests("s1")
    assert len(rows) == 30 and [r["step"] for r in rows] == list(range(1, 31))
    assert rows[4]["model"] == "m" and rows[4]["cached"] == 5 and rows[4]["cost_usd"] == 0.001
    exchanges = store.exchanges("s1")
    last = exchanges[-1]
    assert [m["role"] for m in last["messages"]] == [m.role for m in sent[-1]]
    assert last["messages"][0] == {
        "role": "system", "content": "You are kiln.", "tool_calls": [], "tool_call_id": None,
        "name": None, "cache_breakpoint": True,
    }  # fmt: skip
    assert last["messages"][-1]["content"] == BIG + "28"
    assert last["reply"]["content"] == "reply 30" and last["tools"][0]["name"] == "read_file"
    # 2 + 2*29 distinct messages, 30 replies, 1 tool list, 29 long outputs: each once.
    (blobs,) = store.db.execute("SELECT COUNT(*) FROM blobs").fetchone()
    assert blobs == 60 + 30 + 1 + 29
    (stored,) = store.db.execute("SELECT SUM(LENGTH(text)) FROM blobs").fetchone()
    assert stored < 29 * len(BIG) * 1.1  # not 30 copies of a growing prefix (~435 outputs)


def test_a_usage_update_nobody_recorded_still_gets_its_row(tmp_path: Path) -> None:
    store = Store(tmp_path / "kiln.db")
    store.record_request("s1", request(1, conversation(1)[0], Usage(10, 0, 0, 5)))
    store.record("s1", UsageUpdated(Usage(10, 0, 0, 5), Usage(10, 0, 0, 5), 0.001))
    store.record("s1", UsageUpdated(Usage(13, 0, 0, 7), Usage(3, 0, 0, 2), 0.001))  # a summary
    rows = store.requests("s1")
    assert [(r["uncached"], r["model"]) for r in rows] == [(10, "m"), (3, None)]
    assert store.exchanges("s1")[1] == {"messages": None, "tools": None, "reply": None}


def test_an_older_database_gets_the_new_request_columns(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    old.execute(
        "CREATE TABLE requests (session_id TEXT, ts REAL, uncached INTEGER, cached INTEGER, "
        "cache_write INTEGER, output INTEGER, ttft_s REAL, duration_s REAL, cost_usd REAL)"
    )
    old.execute("INSERT INTO requests VALUES ('s0', 1.0, 5, 0, 0, 1, NULL, 0.5, 0.25)")
    old.commit()
    old.close()
    store = Store(path)
    (before,) = store.requests("s0")
    assert before["model"] is None and before["uncached"] == 5
    store.record_request("s0", request(1, conversation(1)[0], Usage(1, 2, 3, 4)))
    assert (
        store.requests("s0")[1]["cache_write"] == 3 and store.exchanges("s0")[0]["messages"] is None
    )
