"""`kiln sessions list` shows a session with a request in flight as running, with its steps."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from agent.approval import Mode
from agent.events import Finished, SessionStarted, StopReason, TurnStarted
from agent.llm.base import ModelProfile
from agent.llm.openai_compat import OpenAICompatClient
from agent.llm.scripted.server import ScriptedServer
from agent.session import Session
from agent.settings.config import load_settings
from agent.store.db import Store
from tests.scripted import ScriptedPerson

KILN = str(Path(sys.executable).parent / "kiln")


def _listed(session_id: str) -> str:
    out = subprocess.run([KILN, "sessions", "list"], capture_output=True, text=True, check=True)
    return next(line for line in out.stdout.splitlines() if line.startswith(session_id))


async def test_a_running_session_is_listed_running_with_its_steps(
    docker_ready: None, buggy_repo: Path
) -> None:
    read = {"tool_calls": [{"name": "read_file", "arguments": {"path": "calc.py"}}]}
    slow = {"text": "thinking", "fault": "slow_first_token", "delay_s": 30}
    with ScriptedServer([read, slow]) as server:
        profile = ModelProfile(base_url=server.base_url, model="scripted", max_retries=0)
        session = Session(
            load_settings(buggy_repo, env={}),
            buggy_repo,
            ScriptedPerson(),
            Mode.AUTO_EDIT,
            client=OpenAICompatClient(profile),
        )
        events = session.run("look at calc.py")
        try:
            async for event in events:
                if isinstance(event, TurnStarted) and event.step == 2:
                    break  # the second request is in flight (its first token is 30 s away)
            row = await asyncio.to_thread(_listed, session.session_id)
            assert " running " in row and " 2 " in row, row
            session.cancel()
            rest = [event async for event in events]
            assert isinstance(rest[-1], Finished) and rest[-1].stop_reason is StopReason.CANCELLED
        finally:
            await events.aclose()
            await session.close()
    row = _listed(session.session_id)
    assert " cancelled " in row and " 2 " in row, row


def test_a_killed_run_is_listed_interrupted(tmp_path: Path) -> None:
    store = Store(tmp_path / "kiln.db")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    store.record("s1", SessionStarted("s1", "/repo", "task", "m", "ask"))
    store.record("s1", TurnStarted(3))
    store.db.execute("UPDATE sessions SET pid = ? WHERE id = 's1'", (dead.pid,))
    [row] = store.sessions()
    assert row.status == "interrupted" and row.steps == 3
    store.record("s1", TurnStarted(4))  # this process again: alive
    assert store.sessions()[0].status == "running"
    store.record("s1", Finished("done", StopReason.DONE, steps=4))
    [row] = store.sessions()
    assert row.status == "done" and row.steps == 4
