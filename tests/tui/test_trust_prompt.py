"""Must hold: opening the TUI on a repository whose .kiln.toml sets what needs trust asks
first; declining keeps the sandbox as tight as ever, trusting honours the file; what a
declined file would run is named once in the transcript when the session starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.approval import Mode
from agent.llm.scripted.server import ScriptedServer
from agent.settings import trust
from agent.settings.config import load_settings
from tests.tui.live import SIZE, live_app, ready, transcript_text, wait_for
from tests.tui.scripts import calc_repo
from tui.app import KilnApp
from tui.screens.confirm import ConfirmScreen


@pytest.mark.parametrize("answer", ["y", "n"])
async def test_the_tui_asks_before_honouring_a_repositorys_loosening_settings(
    tmp_path: Path, answer: str
) -> None:
    repo = calc_repo(tmp_path / "repo")
    (repo / ".kiln.toml").write_text('[sandbox]\nenv = { TOKEN = "from-repo" }\n')
    # No model anywhere: the session stops right after the question, starting nothing.
    app = KilnApp(load_settings(repo, env={}), repo, Mode.ASK)
    async with app.run_test(size=SIZE) as pilot:
        question = await wait_for(
            pilot, lambda: app.screen if isinstance(app.screen, ConfirmScreen) else None
        )
        assert "Trust this repository's .kiln.toml?" in question.question
        assert "sandbox.env" in question.detail and "from-repo" in question.detail
        await pilot.press(answer)
        await wait_for(
            pilot, lambda: not isinstance(app.screen, ConfirmScreen) or app.screen is not question
        )
    assert trust.is_trusted(repo) is (answer == "y")
    assert (app.settings.sandbox.env.get("TOKEN") == "from-repo") is (answer == "y")


async def test_a_declined_setup_is_named_once_when_the_session_starts(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = calc_repo(tmp_path / "repo")
    (repo / ".kiln.toml").write_text('[sandbox]\nsetup = ["pip install -e ."]\n')
    with ScriptedServer([]) as server:
        app = live_app(repo, server)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("n")
            await ready(pilot)
            said = await wait_for(pilot, lambda: "kiln trust" in transcript_text(app) and app)
            shown = transcript_text(said)
    assert shown.count("kiln ignores what it would run (sandbox.setup in .kiln.toml)") == 1
    assert "run `kiln trust` to honour it" in shown
    assert "sandbox.setup, which kiln ignores" not in shown  # not again, key by key
