"""Opening the TUI on a repository whose .mcp.json names servers asks first: declining
starts none, trusting trusts the file as it is."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.approval import Mode
from agent.mcp.config import choose_servers
from agent.settings import trust
from agent.settings.config import load_settings
from tests.mcp.mcp_fixtures import write_mcp_json
from tests.tui.live import SIZE, wait_for
from tests.tui.scripts import calc_repo
from tui.app import KilnApp
from tui.screens.confirm import ConfirmScreen


@pytest.mark.parametrize("answer", ["y", "n"])
async def test_the_tui_asks_before_a_repositorys_mcp_servers_start(
    tmp_path: Path, answer: str
) -> None:
    repo = calc_repo(tmp_path / "repo")
    write_mcp_json(repo)
    app = KilnApp(load_settings(repo, env={}), repo, Mode.ASK)  # no model: stops after asking
    async with app.run_test(size=SIZE) as pilot:
        question = await wait_for(
            pilot, lambda: app.screen if isinstance(app.screen, ConfirmScreen) else None
        )
        assert question.question == "Trust this repository's .mcp.json?"
        assert "starts MCP servers on your machine: glossary, units." in question.detail
        await pilot.press(answer)
        await wait_for(
            pilot, lambda: not isinstance(app.screen, ConfirmScreen) or app.screen is not question
        )
    assert trust.is_trusted(repo, trust.MCP_FILE) is (answer == "y")
    chosen = choose_servers(repo, load_settings(repo, env={}))
    assert sorted(chosen.servers) == (["glossary", "units"] if answer == "y" else [])
