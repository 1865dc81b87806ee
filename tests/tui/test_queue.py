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
from tests.vcs.conftest import BROKEN, GIT_ENV, GOOD, commit_file, git, land
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


async def test_the_review_screen_lists_findings_and_opens_the_change(tmp_path: Path) -> None:
    from agent.cost.meter import Meter
    from agent.llm.base import ModelProfile
    from agent.llm.openai_compat import OpenAICompatClient
    from agent.llm.scripted.server import ScriptedServer
    from agent.review.reviewer import ReviewOptions
    from agent.review.runner import TargetSpec, review
    from agent.settings.config import load_settings
    from tests.review.test_review import finding, finish
    from tui.screens.review import ReviewScreen

    buggy_repo = make_git_repo(tmp_path / "shop", {"shop.py": GOOD})
    commit_file(buggy_repo, "shop.py", BROKEN, "total: start from the second price")
    turns = [
        {"tool_calls": [finding(3, line=10, title="no check for an empty list"), finding(0)]},
        {"tool_calls": [finish()]},
    ]
    with ScriptedServer(turns) as server:
        client = OpenAICompatClient(ModelProfile(base_url=server.base_url, model="m"))
        result = await review(
            buggy_repo, load_settings(buggy_repo, env={}), client, Meter(), TargetSpec("HEAD"),
            ReviewOptions(verify=False),
        )  # fmt: skip
        await client.aclose()
    app = KilnApp(offline_settings(), buggy_repo, Mode.ASK, connect=False)
    async with app.run_test(size=(120, 36)) as pilot:
        app.push_screen(ReviewScreen(result))
        screen = await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen)
        table = await wait_for(
            pilot, lambda: screen.query(DataTable).first() if screen.query(DataTable) else None
        )
        await wait_for(pilot, lambda: table.row_count == 2)
        assert [str(table.get_row_at(r)[0]) for r in range(table.row_count)] == ["P0", "P3"]
        assert "prices[1:] leaves out" in str(screen.query_one("#finding").render())
        await pilot.press("down")
        await wait_for(pilot, lambda: table.cursor_row == 1)
        await pilot.press("enter")
        diff = await wait_for(pilot, lambda: isinstance(app.screen, DiffScreen) and app.screen)
        assert "+    for price in prices[1:]:" in diff.diff and diff.title_text.startswith(
            "shop.py"
        )
