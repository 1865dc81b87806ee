"""Must hold: however the TUI ends, its sandbox goes with it. /quit, Ctrl+Q and a closed
terminal close the session themselves (tests/tui/test_e2e_tmux.py). Every other way out
reaches only Textual's own exit: a crash, a screenshot's timer, `App.exit()`. The app
closes the session on its way down, on its own loop, which the sandbox's tasks live on."""

from __future__ import annotations

from pathlib import Path

from agent.llm.scripted.server import ScriptedServer
from tests.batch.scenario import leftovers
from tests.tui.live import SIZE, live_app, ready
from tests.tui.scripts import calc_repo


async def test_an_exit_that_is_not_kilns_own_quit_still_removes_the_sandbox(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = calc_repo(tmp_path / "repo")
    with ScriptedServer([]) as server:
        app = live_app(repo, server)
        async with app.run_test(size=SIZE) as pilot:
            await ready(pilot)
            assert app.session is not None and app.session.sandbox is not None
            session_id = app.session.session_id
            app.exit()  # as Textual's screenshot timer does; no /quit, no Ctrl+Q
    assert leftovers(f"kiln.session={session_id}") == ([], [])
    assert app.closed
