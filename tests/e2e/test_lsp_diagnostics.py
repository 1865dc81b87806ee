"""Language servers end to end: a session against the scripted model over real HTTP, the
real Docker sandbox with the image's pyright and typescript-language-server. What an edit
introduced reaches the model, and none of what the file had before: with the edit's own
result once its server runs, with the first result after its server's start otherwise (a
start never holds an edit); a server killed inside the container mid-session costs the run
one notice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agent.approval import Mode
from agent.events import Finished, Notice, RunStatus, ToolCallFinished
from agent.llm.scripted.server import ScriptedServer
from agent.settings.config import load_settings
from agent.store.codec import stored_events
from tests.conftest import make_git_repo
from tests.scripted import run_scripted

pytestmark = pytest.mark.usefixtures("docker_ready")

CALC = "def total(values, start):\n    return sum(values) + start\n"
# Two warnings pyright gives before any edit (an unused expression, a self-assignment),
# below the line the edit changes: they move down a line.
MAIN = "from calc import total\n\nprint(total([1, 2], 3))\n\nwidth = 3\nwidth == 4\nwidth = width\n"
# A type error there before any edit, of another kind than the one the edit makes, and
# below it: it moves down a line too.
LIB = "export const old: number = 'seven';\n"
REPO = {"calc.py": CALC, "main.py": MAIN, "lib.ts": LIB}


def edit(path: str, old: str, new: str) -> dict[str, Any]:
    return {
        "tool_calls": [
            {"name": "edit_file", "arguments": {"path": path, "old_text": old, "new_text": new}}
        ]
    }


FINISH = {"tool_calls": [{"name": "finish", "arguments": {"summary": "done"}}]}
# Time for a server's start (about a second; more under load) while the model "thinks".
WAIT = {"tool_calls": [{"name": "run", "arguments": {"command": "sleep 6; echo waited"}}]}


def tool_reply(server: ScriptedServer, request: int) -> str:
    """The last tool result the model was sent in request number `request` (from 0)."""
    messages = server.chat_requests[request].body["messages"]
    return str([m for m in messages if m["role"] == "tool"][-1]["content"])


async def test_the_model_hears_what_each_edit_broke_and_nothing_older(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", REPO)
    script = [
        # Too many arguments and a misspelt name, in a file with warnings of its own.
        edit("main.py", "print(total([1, 2], 3))", "print(total([1, 2], 3, 5))\nprint(widht)"),
        WAIT,
        # A type error in a file that had another already.
        edit("lib.ts", "export const old", "export const half: boolean = 2 / 2;\nexport const old"),
        WAIT,
        # Once its server runs, an edit's own result says what it broke.
        edit("main.py", "print(widht)", "print(widht)\nprint(hieght)"),
        FINISH,
    ]
    events, session, server = await run_scripted(
        repo, script, "use the totals", mode=Mode.FULL_AUTO
    )
    assert "is not defined" not in tool_reply(server, 1)  # the start did not hold the edit
    after_python, after_typescript, warm = (tool_reply(server, k) for k in (2, 4, 5))
    assert after_python.startswith("waited") and "earlier edit of main.py" in after_python
    assert "Expected 2 positional arguments" in after_python
    assert '"widht" is not defined' in after_python
    assert "main.py:3:" in after_python and "main.py:4:" in after_python  # lines after the edit
    assert "unused" not in after_python and "assigned to itself" not in after_python
    assert "Type 'number' is not assignable to type 'boolean'." in after_typescript
    assert "'string' is not assignable" not in after_typescript  # the error there before
    assert '"hieght" is not defined' in warm and "widht" not in warm  # only what it added
    assert not [e for e in events if isinstance(e, Notice) and "language server" in e.message]
    # Stored with the steps, as the transcript and the TUI draw them: the calls' outputs.
    assert session.store is not None
    stored = stored_events(session.store, session.session_id) or []
    shown = [e.output for e in stored if isinstance(e, ToolCallFinished)]
    assert '"widht" is not defined' in shown[1] and "boolean" in shown[3]
    assert '"hieght" is not defined' in shown[4]


async def test_a_server_killed_mid_session_costs_one_notice_and_the_run_goes_on(
    tmp_path: Path,
) -> None:
    repo = make_git_repo(tmp_path / "repo", REPO)
    kill = {
        "tool_calls": [
            {
                "name": "run",
                "arguments": {"command": "pkill -KILL -f 'pyright-[l]angserver'; echo killed"},
            }
        ]
    }
    script = [
        edit("main.py", "width = 3", "width = 30"),
        WAIT,
        kill,
        edit("main.py", "width = 30", "width = 31\nprint(nothing_here)"),
        edit("calc.py", "return sum(values) + start", "return sum(values) + start + missing"),
        FINISH,
    ]
    events, _session, server = await run_scripted(
        repo, script, "tune the width", mode=Mode.FULL_AUTO
    )
    notices = [e for e in events if isinstance(e, Notice) and "language server" in e.message]
    assert len(notices) == 1, [n.message for n in notices]
    assert notices[0].message.startswith("The python language server (pyright-langserver) stopped")
    calls = [e for e in events if isinstance(e, ToolCallFinished)]
    names = ["edit_file", "run", "run", "edit_file", "edit_file", "finish"]
    assert [c.name for c in calls] == names
    assert all(c.ok for c in calls[:5]) and "killed" in calls[2].output
    assert "is not defined" not in tool_reply(server, 4)  # no server, no word: the edit went on
    finished = [e for e in events if isinstance(e, Finished)]
    assert len(finished) == 1 and finished[0].status is not RunStatus.ERROR
    assert len(server.chat_requests) == len(script)


async def test_with_lsp_off_no_server_starts_and_the_edit_says_nothing_more(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", REPO)
    script = [edit("main.py", "print(total([1, 2], 3))", "print(widht)"), FINISH]
    settings = load_settings(repo, {"lsp.enabled": False}, env={})
    events, _session, server = await run_scripted(
        repo, script, "print it", mode=Mode.FULL_AUTO, settings=settings
    )
    said = tool_reply(server, 1)
    assert said.startswith("Edited main.py: replaced 1 place.") and "not defined" not in said
    assert not [e for e in events if isinstance(e, Notice) and "language server" in e.message]
