"""The review queue in the app (Pilot): kiln's commits listed, a diff opened, one dropped
and brought back from the reflog, one reworded; a real repository, no model needed."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable

from agent.approval import Mode
from agent.vcs.commit import Provenance, commit_last_applied
from tests.conftest import make_git_repo
from tests.tui.live import submit, wait_for
from tests.tui.scenes import offline_settings
from tests.vcs.conftest import GIT_ENV, git, land
from tui.app import KilnApp
from tui.screens.diff import DiffScreen
from tui.screens.queue import QueueScreen, RewordScreen


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    repo = make_git_repo(tmp_path / "r", {"a.txt": "a\n"})
    for n, session in ((1, "s1"), (2, "s1"), (3, "other")):
        land(repo, f"f{n}.py", f"x = {n}\n", session)
        who = Provenance(session, "scripted-model", 100 * n, 0.001 * n, f"{n} passed, 0 failed")
        commit_last_applied(repo, f"feat: f{n}", who)
    return repo


async def test_drop_in_the_queue_and_the_reflog_brings_it_back(repo: Path) -> None:
    app = KilnApp(offline_settings(), repo, Mode.ASK, connect=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await submit(pilot, "/queue")
        screen = await wait_for(pilot, lambda: isinstance(app.screen, QueueScreen) and app.screen)
        table = screen.query_one(DataTable)
        await wait_for(pilot, lambda: table.row_count == 3)
        assert [c.subject for c in screen.commits] == ["feat: f3", "feat: f2", "feat: f1"]
        assert [str(c) for c in table.get_row_at(1)[1:]][1:] == [
            "feat: f2", "1 files +1 -0", "$0.0020", "2 passed, 0 failed"
        ]  # fmt: skip

        await pilot.press("down")  # feat: f2
        await pilot.press("enter")
        diff = await wait_for(pilot, lambda: isinstance(app.screen, DiffScreen) and app.screen)
        assert "+x = 2" in diff.diff
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)

        tip = git(repo, "rev-parse", "HEAD").strip()
        await pilot.press("d")
        await wait_for(pilot, lambda: table.row_count == 2)
        assert git(repo, "log", "--format=%s").splitlines() == ["feat: f3", "feat: f1", "initial"]
        assert "git reflog keeps" in str(screen.query_one("#status").render())
        assert git(repo, "reflog", "--format=%H", "main").splitlines()[1] == tip

        await pilot.press("r")
        reword = await wait_for(pilot, lambda: isinstance(app.screen, RewordScreen) and app.screen)
        reword.query_one("Input").value = "feat: the first file"
        await pilot.press("enter")
        await wait_for(pilot, lambda: "feat: the first file" in [c.subject for c in screen.commits])
    git(repo, "reset", "-q", "--hard", tip)  # what the reflog kept: f2 is back
    assert git(repo, "log", "--format=%s").splitlines() == [
        "feat: f3", "feat: f2", "feat: f1", "initial"
    ]  # fmt: skip
    assert (repo / "f2.py").read_text() == "x = 2\n"
