"""Slash commands, the palette's same actions, themes remembered, history, and resume."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

import themes
from agent import commands
from agent.events import Finished
from agent.llm.scripted.server import ScriptedServer
from tests.tui.live import (
    finished,
    live_app,
    question,
    ready,
    running,
    submit,
    transcript_text,
    wait_for,
)
from tests.tui.scenes import offline_app
from tests.tui.scripts import calc_repo, fix_calc_turns
from tui.history import PromptHistory
from tui.screens.diff import DiffScreen


async def _say(pilot, line: str, expect: str) -> None:
    await submit(pilot, line)
    await wait_for(pilot, lambda: expect in transcript_text(pilot.app), timeout=10)


async def test_slash_commands_without_a_session_answer_in_one_sentence() -> None:
    app = offline_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await _say(pilot, "/help", "/apply")
        await _say(pilot, "/cost", "cache-hit ratio")
        await _say(pilot, "/frobnicate", "There is no /frobnicate")
        await _say(pilot, "/review", "not ready yet")
        await _say(pilot, "/diff", "not ready yet")
        await _say(pilot, "/mode sideways", "not a mode")
        await _say(pilot, "/mode plan", "Mode: plan")
        assert app.meter_state.mode == "plan"
        await _say(pilot, "/theme kiln-light", "Theme: kiln-light")
        assert app.theme == "kiln-light"
    assert themes.remembered_theme() == "kiln-light"
    # and the next start picks it up
    second = offline_app()
    async with second.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert second.theme == "kiln-light"


async def test_completion_and_history() -> None:
    app = offline_app()
    async with app.run_test(size=(120, 36)) as pilot:
        prompt = app.main.prompt
        prompt.focus()
        await pilot.press("/", "t", "h")
        assert prompt.suggestion == "eme"
        box = app.main.query_one("#completions", Static)  # shown above the prompt
        assert (
            box.display and "/theme" in str(box.render()) and "Tab completes" in str(box.render())
        )
        assert box.region.bottom == prompt.region.y
        await pilot.press("tab")
        assert prompt.text == "/theme "
        await pilot.pause()
        assert not box.display  # a space typed: nothing left to complete
        await pilot.press("enter")
        await pilot.press("up")
        assert prompt.text == "/theme "
    assert PromptHistory().entries[-1] == "/theme "


async def test_palette_offers_the_slash_commands() -> None:
    from tui.palette import SlashCommandProvider

    app = offline_app()
    async with app.run_test(size=(120, 36)) as pilot:
        provider = SlashCommandProvider(app.screen)
        shown = [entry[0] for entry in provider._entries()]
        for command in commands.COMMANDS:
            assert any(command.name in s for s in shown), command.name
        assert "theme: kiln-high-contrast" in shown
        await pilot.press("ctrl+p")
        await pilot.press(*"theme: kiln-high-contrast")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.theme == "kiln-high-contrast", timeout=5)


def test_broken_user_theme_is_reported_and_skipped(tmp_path: Path) -> None:
    (tmp_path / "good.toml").write_text('primary = "#112233"\ndark = false\n')
    (tmp_path / "bad.toml").write_text('primary = "#112233"\ncolour = "x"\n')
    loaded, problems = themes.load_user_themes(tmp_path)
    assert [t.name for t in loaded] == ["good"]
    assert len(problems) == 1 and "bad.toml" in problems[0] and "colour" in problems[0]


@pytest.mark.usefixtures("docker_ready")
async def test_diff_and_resume_reopen_transcript_and_state(tmp_path: Path) -> None:
    repo = calc_repo(tmp_path / "repo")
    with ScriptedServer(fix_calc_turns()) as server:
        first = live_app(repo, server)
        async with running(first) as pilot:
            await ready(pilot)
            await submit(pilot, "/mode auto-edit")
            await submit(pilot, "fix add")
            await wait_for(pilot, lambda: finished(first))
            await question(pilot)  # auto-edit offers the diff at the end: keep it in the sandbox
            await pilot.press("n")
            await submit(pilot, "/diff")
            screen = await wait_for(
                pilot,
                lambda: pilot.app.screen if isinstance(pilot.app.screen, DiffScreen) else None,
            )
            assert "+    return a + b" in screen.diff
            await pilot.press("escape")
            session_id = first.session.session_id  # type: ignore[union-attr]
    with ScriptedServer([]) as server:
        again = live_app(repo, server, resume=session_id)
        async with running(again) as pilot:
            await ready(pilot)
            assert again.session is not None and again.session.session_id == session_id
            assert any(isinstance(e, Finished) for e in again.session.events)
            assert "Fixed `add` in calc.py." in transcript_text(again)
            assert "+    return a + b" in await again.session.diff()  # the workspace is back


@pytest.mark.usefixtures("docker_ready")
async def test_model_switches_the_next_request_and_keeps_the_conversation(tmp_path: Path) -> None:
    repo = calc_repo(tmp_path / "repo")
    turns = [{"text": f"Answer {n}."} for n in range(6)]
    with ScriptedServer(turns) as server:
        async with running(live_app(repo, server)) as pilot:
            app = await ready(pilot)
            await submit(pilot, "say something")
            await wait_for(pilot, lambda: len(server.chat_requests) >= 1 and not app.running)
            await _say(pilot, "/model", "In use: scripted-model")
            await _say(pilot, "/model other-model", "Model: other-model")
            assert app.meter_state.model == "other-model"
            before = len(server.chat_requests)
            await submit(pilot, "and again")
            await wait_for(pilot, lambda: len(server.chat_requests) > before)
    first, after = server.chat_requests[0].body, server.chat_requests[before].body
    assert first["model"] == "scripted-model" and after["model"] == "other-model"
    assert any("say something" in str(m.get("content")) for m in after["messages"])


async def test_agents_lists_the_built_ins_and_the_repositorys_definitions(
    docker_ready: None, tmp_path: Path
) -> None:
    reviewer = "---\nname: reviewer\ndescription: Reviews code for bugs.\ntools: Read, Grep\n---\nReview.\n"
    repo = calc_repo(tmp_path / "repo")
    (repo / ".claude" / "agents").mkdir(parents=True)
    (repo / ".claude" / "agents" / "reviewer.md").write_text(reviewer)
    with ScriptedServer([]) as server:
        app = live_app(repo, server)
        async with app.run_test(size=(140, 40)) as pilot:
            await ready(pilot)
            await _say(pilot, "/agents", "reviewer (.claude/agents/reviewer.md, read-only")
            shown = transcript_text(app)
    assert "explore (built-in, read-only)" in shown and "general (built-in, may edit)" in shown
    assert "read_file, search): Reviews code for bugs." in shown
