"""A custom command in the full-screen app: completed inline, offered in the palette, and
run as the task on the bubblewrap sandbox (the scripted model sees the filled-in prompt)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from agent.approval import Mode
from agent.llm.scripted.server import ScriptedServer
from tests.custom.test_custom_live import bwrap_settings, sql_repo, user_text
from tests.tui.live import finished, ready, running, transcript_text, wait_for
from tui.app import KilnApp
from tui.palette import SlashCommandProvider

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap not installed")


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))


async def test_review_sql_completes_is_in_the_palette_and_runs(tmp_path: Path) -> None:
    repo = sql_repo(tmp_path / "repo")
    (repo / ".claude/commands/diff.md").write_text("a custom diff")  # the built-in wins
    with ScriptedServer([{"text": "The query interpolates a string."}]) as server:
        app = KilnApp(bwrap_settings(repo, server), repo, Mode.ASK)
        async with running(app) as pilot:
            await ready(pilot)
            shown = [entry[0] for entry in SlashCommandProvider(app.screen)._entries()]
            assert "/review-sql" in shown
            said = transcript_text(app)
            assert said.count(".claude/commands/diff.md") == 1 and "kiln's own command" in said
            prompt = app.main.prompt
            prompt.focus()
            await pilot.press(*"/review-")
            assert prompt.suggestion == "sql"
            await pilot.press("tab", *"orders.sql", "enter")
            await wait_for(pilot, lambda: finished(app))
            text = transcript_text(app)
    assert "/review-sql: the prompt from .claude/commands/review-sql.md" in text
    assert "The query interpolates a string." in text
    expected = "Describe the injection risks and missing indexes in the SQL of orders.sql."
    assert expected in user_text(server.chat_requests[0])


async def test_the_palette_puts_a_command_that_takes_words_in_the_prompt(tmp_path: Path) -> None:
    from tests.tui.scenes import offline_settings

    repo = sql_repo(tmp_path / "repo")
    (repo / ".kiln/commands").mkdir(parents=True)
    (repo / ".kiln/commands/tidy.md").write_text("Tidy the imports.")
    app = KilnApp(offline_settings(), repo, Mode.ASK, connect=False)
    async with app.run_test(size=(120, 36)) as pilot:
        entries = {e[0]: e[1] for e in SlashCommandProvider(app.screen)._entries()}
        assert entries["/review-sql"] == "/review-sql " and entries["/tidy"] == "/tidy"
        await pilot.press("ctrl+p")
        await pilot.press(*"review-sql")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.main.prompt.text == "/review-sql ", timeout=5)
