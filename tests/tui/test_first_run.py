"""First run with no model anywhere: the TUI offers the embedded local model."""

from __future__ import annotations

from pathlib import Path

from agent.approval import Mode
from agent.settings.config import load_settings
from tests.tui.live import SIZE, transcript_text, wait_for
from tests.tui.scripts import calc_repo
from tui.app import KilnApp
from tui.screens.confirm import ConfirmScreen


async def test_no_model_offers_the_local_install_and_declining_says_how(tmp_path: Path) -> None:
    repo = calc_repo(tmp_path / "repo")
    app = KilnApp(load_settings(repo, env={}), repo, Mode.ASK)
    async with app.run_test(size=SIZE) as pilot:
        offer = await wait_for(
            pilot, lambda: app.screen if isinstance(app.screen, ConfirmScreen) else None
        )
        assert "local model" in offer.question
        assert "No model is configured" in transcript_text(app)
        await pilot.press("n")
        await wait_for(
            pilot, lambda: "kiln local install" in transcript_text(app).split("Not installed")[-1]
        )
        assert app.session is None  # nothing started: no sandbox was left behind
