"""Custom commands and skills on the real bubblewrap sandbox with the scripted model: a
`.claude/commands/review-sql.md` command run in line mode (the model sees the filled-in
prompt), a skill's body absent from the first request and read by `read_skill` when the
model asks, /context's parts, and ACP's list of commands."""

from __future__ import annotations

import asyncio
import io
import os
import shutil
from pathlib import Path
from typing import Any

import acp
import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from agent.approval import Mode
from agent.llm.scripted.server import ScriptedServer
from agent.session import Session
from agent.settings.config import Settings, load_settings
from tests.acp.plain_acp import KILN
from tests.conftest import make_git_repo
from tests.scripted import ScriptedPerson
from tui.chat import LineMode
from tui.launch import Launch

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap not installed")

REVIEW_SQL = (
    "---\ndescription: Review a SQL file for injection and missing indexes\n"
    "argument-hint: [FILE]\n---\n"
    "Describe the injection risks and missing indexes in the SQL of $ARGUMENTS."
)
QUERY = "SELECT * FROM orders WHERE id = '%s';\n"
SKILL = (
    "---\nname: sql-style\ndescription: House style for SQL: use when writing or reviewing "
    "SQL.\n---\n# SQL style\n\nALWAYS-NAME-COLUMNS: never SELECT *; name every column.\n"
)
FINISH = {"tool_calls": [{"name": "finish", "arguments": {"summary": "Reviewed."}}]}


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))


def sql_repo(path: Path, *, skill: bool = False) -> Path:
    files: dict[str, str | bytes] = {
        "orders.sql": QUERY,
        ".claude/commands/review-sql.md": REVIEW_SQL,
    }
    if skill:
        files[".claude/skills/sql-style/SKILL.md"] = SKILL
        files[".claude/skills/sql-style/examples/good.sql"] = "SELECT id, total FROM orders;\n"
    return make_git_repo(path, files)


def bwrap_settings(repo: Path, server: ScriptedServer) -> Settings:
    flags = {
        "models.main.base_url": server.base_url,
        "models.main.model": "scripted-model",
        "sandbox.backend": "bwrap",
    }
    return load_settings(repo, flags, env={})


def user_text(request: Any) -> str:
    return "\n".join(
        m["content"] for m in request.body["messages"] if m["role"] == "user" and m["content"]
    )


def everything(request: Any) -> str:
    return "\n".join(str(m.get("content") or "") for m in request.body["messages"])


async def test_review_sql_runs_in_line_mode_with_its_arguments(tmp_path: Path) -> None:
    repo = sql_repo(tmp_path / "repo")
    turns = [{"text": "The query interpolates a string."}]
    with ScriptedServer(turns) as server, create_pipe_input() as keys:
        screen = io.StringIO()
        with create_app_session(input=keys, output=DummyOutput()):
            line_mode = LineMode(
                Launch(bwrap_settings(repo, server), repo, Mode.ASK, None),
                Console(file=screen, width=160),
            )
            runner = asyncio.ensure_future(line_mode.run())

            async def shows(text: str) -> None:
                for _ in range(600):
                    if text in screen.getvalue() or runner.done():
                        break
                    await asyncio.sleep(0.1)
                assert text in screen.getvalue(), screen.getvalue()

            await shows("Working on")
            keys.send_text("/help\n")
            await shows("/review-sql [FILE]")
            keys.send_text("/review-sql orders.sql\n")
            await shows("the prompt from .claude/commands/review-sql.md")
            await shows("answered · ")
            keys.send_text("/quit\n")
            assert await asyncio.wait_for(runner, 60) == 0
        first = server.chat_requests[0]
    shown = screen.getvalue()
    assert (
        "Review a SQL file for injection and missing indexes (custom: .claude/commands/review-sql.md)"
        in shown
    )
    assert (
        "Describe the injection risks and missing indexes in the SQL of orders.sql."
        in user_text(first)
    )
    assert "$ARGUMENTS" not in everything(first)


async def test_a_skill_body_is_read_only_when_the_model_asks(tmp_path: Path) -> None:
    repo = sql_repo(tmp_path / "repo", skill=True)
    turns = [
        {"tool_calls": [{"name": "read_skill", "arguments": {"name": "sql-style"}}]},
        {
            "tool_calls": [
                {
                    "name": "read_skill",
                    "arguments": {"name": "sql-style", "path": "examples/good.sql"},
                }
            ]
        },
        {"text": "orders.sql uses SELECT *."},
        FINISH,
    ]
    with ScriptedServer(turns) as server:
        session = Session(bwrap_settings(repo, server), repo, ScriptedPerson(), Mode.ASK)
        try:
            events = [e async for e in session.run("review orders.sql against our SQL style")]
            context = "\n".join(session.footprint())
        finally:
            await session.close()
        requests = server.chat_requests
    assert events, "the run said nothing"
    first, second, third = requests[0].body, requests[1].body, requests[2].body
    system = first["messages"][0]["content"]
    assert "- sql-style: House style for SQL" in system  # the metadata, in the prefix
    assert "ALWAYS-NAME-COLUMNS" not in everything(requests[0])  # the body is not
    names = [t["function"]["name"] for t in first["tools"]]
    assert names[-1] == "read_skill" and len(names) == 12  # after the ten and `agent`
    assert "ALWAYS-NAME-COLUMNS" in everything(requests[1])
    assert "examples/good.sql" in everything(requests[1])
    assert "SELECT id, total FROM orders;" in everything(requests[2])
    assert second["messages"][0] == first["messages"][0] == third["messages"][0]  # cache-stable
    assert "skills" in context and "1: sql-style" in context
    for part in ("system prompt", "project rules", "repo map", "tools", "The conversation"):
        assert part in context, context


async def test_acp_lists_the_custom_commands_and_runs_one(tmp_path: Path) -> None:
    repo = sql_repo(tmp_path / "repo")
    updates: list[Any] = []

    class Client:
        async def session_update(self, session_id: str, update: Any, **_: Any) -> None:
            updates.append(update)

        async def request_permission(self, *args: Any, **kwargs: Any) -> Any:
            raise AssertionError("nothing here needs a permission")

        def on_connect(self, conn: Any) -> None:
            pass

    turns = [{"text": "The query interpolates a string."}]
    with ScriptedServer(turns) as server:
        flags = ("acp", "--base-url", server.base_url, "--model", "m", "--backend", "bwrap")
        async with acp.spawn_agent_process(Client(), KILN, *flags, env=dict(os.environ)) as (
            conn,
            _,
        ):
            await conn.initialize(protocol_version=acp.PROTOCOL_VERSION)
            new = await conn.new_session(cwd=str(repo), mcp_servers=[])
            for _ in range(100):
                if any(u.session_update == "available_commands_update" for u in updates):
                    break
                await asyncio.sleep(0.1)
            reply = await conn.prompt(
                session_id=new.session_id, prompt=[acp.text_block("/review-sql orders.sql")]
            )
            assert reply.stop_reason == "end_turn"
        first = server.chat_requests[0]
    [listed] = [u for u in updates if u.session_update == "available_commands_update"][:1]
    by_name = {c.name: c for c in listed.available_commands}
    assert "review-sql" in by_name and "diff" in by_name and "context" in by_name
    review = by_name["review-sql"]
    assert review.description.endswith("(custom: .claude/commands/review-sql.md)")
    assert review.input is not None and review.input.root.hint == "[FILE]"
    assert (
        "Describe the injection risks and missing indexes in the SQL of orders.sql."
        in user_text(first)
    )


def test_kiln_run_takes_a_custom_command_as_its_task(tmp_path: Path) -> None:
    import json
    import subprocess

    repo = sql_repo(tmp_path / "repo")
    with ScriptedServer([{"text": "The query interpolates a string."}]) as server:
        done = subprocess.run(
            [KILN, "run", "/review-sql orders.sql", "--backend", "bwrap", "--base-url",
             server.base_url, "--model", "m", "--output-format", "json"],
            cwd=repo, capture_output=True, text=True, timeout=120, env=dict(os.environ),
        )  # fmt: skip
        first = server.chat_requests[0]
    assert done.returncode == 0, done.stderr
    assert "/review-sql: the prompt from .claude/commands/review-sql.md." in done.stderr
    assert json.loads(done.stdout)["status"] == "answered"
    expected = "Describe the injection risks and missing indexes in the SQL of orders.sql."
    assert expected in user_text(first)
