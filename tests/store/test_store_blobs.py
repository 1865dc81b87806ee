"""Must hold: a big text (a file written whole, a long output) is stored once, not once per
table that mentions it, and every reader gets it back whole."""

from __future__ import annotations

from pathlib import Path

from agent.approval import Action
from agent.events import ApprovalRequested, SessionStarted, ToolCallFinished, ToolCallStarted
from agent.llm.base import Message, ToolCall
from agent.store.db import Store


def test_a_big_file_written_is_kept_once(tmp_path: Path) -> None:
    store = Store(tmp_path / "kiln.db")
    content = "".join(f"line {i} of a big module\n" for i in range(40_000))  # about 1 MB
    output = "x" * 300_000
    args = {"path": "big.py", "content": content}
    store.record("s1", SessionStarted("s1", "/repo", "write it", "m", "ask"))
    store.record("s1", ToolCallStarted("c1", "write_file", args))
    store.record("s1", ToolCallFinished("c1", "write_file", True, output, 0.1))
    messages = [
        Message("user", "write it"),
        Message("assistant", "", tool_calls=(ToolCall("c1", "write_file", args),)),
        Message("tool", output, tool_call_id="c1", name="write_file"),
    ]
    for _ in range(3):  # saved after every step
        store.save_state("s1", messages, "")

    stored = store.db.execute("SELECT SUM(LENGTH(text)) FROM blobs").fetchone()[0]
    assert stored == len(content) + len(output)  # each big text once
    elsewhere = sum(
        store.db.execute(f"SELECT COALESCE(SUM(LENGTH({column})), 0) FROM {table}").fetchone()[0]
        for table, column in (("events", "data"), ("tool_calls", "arguments"),
                              ("tool_calls", "output"), ("sessions", "messages"))
    )  # fmt: skip
    assert elsewhere < 5_000

    started = next(e for e in store.events("s1") if e["type"] == "tool_call_started")
    assert started["arguments"]["content"] == content
    back, _ = store.state("s1")
    assert back[1].tool_calls[0].arguments["content"] == content and back[2].content == output
    finished = next(e for e in store.events("s1") if e["type"] == "tool_call_finished")
    assert finished["output"] == output
    store.close()


def test_a_diff_that_is_not_utf8_is_kept_byte_for_byte(tmp_path: Path) -> None:
    store = Store(tmp_path / "kiln.db")
    store.record("s1", SessionStarted("s1", "/repo", "fix it", "m", "ask"))
    # A Latin-1 source's line, as the sandbox decodes a diff (surrogateescape).
    raw = b"--- a/old.py\n+++ b/old.py\n@@ -1 +1 @@\n-s = 'caf\xe9'\n+s = 'caf\xe9!'\n"
    diff = raw.decode("utf-8", "surrogateescape")
    store.save_state("s1", [Message("user", "fix it")], diff)
    _, back = store.state("s1")
    assert back.encode("utf-8", "surrogateescape") == raw
    assert store.db.execute("SELECT has_diff FROM sessions").fetchone()[0] == 1
    # A row kept as text before diffs were kept as bytes still reads.
    store.db.execute("UPDATE sessions SET diff = ? WHERE id = 's1'", ("plain text diff\n",))
    assert store.state("s1")[1] == "plain text diff\n"
    store.close()


def test_a_rescued_patch_that_is_not_utf8_is_kept_byte_for_byte(tmp_path: Path) -> None:
    from agent.store.rescue import keep_patch
    from tests.conftest import make_git_repo

    repo = make_git_repo(tmp_path / "repo", {"a.txt": "a\n"})
    raw = b"--- a/old.txt\n+++ b/old.txt\n@@ -1 +1 @@\n-caf\xe9\n"
    kept = keep_patch(repo, "s1", raw.decode("utf-8", "surrogateescape"))
    assert kept is not None and kept.read_bytes() == raw


def test_a_long_text_that_is_not_utf8_is_recorded_and_read_back_exactly(tmp_path: Path) -> None:
    # An apply's question carries the whole diff: a Latin-1 file's bytes come as surrogate
    # escapes, which SQLite's text refuses; the run must go on and the record be exact.
    store = Store(tmp_path / "kiln.db")
    raw = b"+++ b/big.txt\n" + b"+caf\xe9 au lait\n" * 6000
    diff = raw.decode("utf-8", "surrogateescape")
    store.record("s1", SessionStarted("s1", "/repo", "fix it", "m", "ask"))
    store.record("s1", ApprovalRequested("r1", Action.APPLY, "apply the changes", diff))
    assert store.settle() is None
    asked = next(e for e in store.events("s1") if e["type"] == "approval_requested")
    assert asked["diff"].encode("utf-8", "surrogateescape") == raw
    store.close()


def test_a_short_text_that_is_not_utf8_is_recorded_with_it_replaced(tmp_path: Path) -> None:
    # A task typed in another encoding reaches kiln as surrogate escapes (argv is decoded so).
    store = Store(tmp_path / "kiln.db")
    task = b"rename caf\xe9".decode("utf-8", "surrogateescape")
    store.record("s1", SessionStarted("s1", "/repo", task, "m", "ask"))
    assert store.settle() is None
    (row,) = store.sessions()
    assert row.title == "rename caf\ufffd"
    store.close()
