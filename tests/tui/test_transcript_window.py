"""The transcript mounts only a window of its blocks, yet scrolls, searches and opens tool
calls over all of them; a long session replayed draws its end first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from agent.events import AssistantMessage, TextDelta
from agent.settings.config import load_settings
from agent.store.db import Store
from tests.tui.live import wait_for
from tests.tui.scenes import long_session, offline_app
from tests.tui.scripts import calc_repo
from tui.app import KilnApp
from tui.widgets.blocks import FinishedLine
from tui.widgets.entries import ToolEntry
from tui.widgets.tool_call import ToolCallBlock
from tui.widgets.window import BATCH, FIRST, FOLLOWING, WINDOW

SIZE = (120, 36)


def on_screen(app: KilnApp, needle: str) -> bool:
    """`needle` is painted in the transcript's visible part now."""
    transcript = app.main.transcript
    seen = transcript.region
    for widget in transcript.mounted:
        if widget.region.overlaps(seen) and needle in _text(widget):
            return True
    return False


def _text(widget: Any) -> str:
    if isinstance(widget, ToolCallBlock):
        return str(widget.title)
    rendered = [str(w.render()) for w in widget.query("Static, Markdown, MarkdownBlock")]
    return "\n".join([str(widget.render()), *rendered])


async def _replayed(pilot: Pilot[Any], steps: int) -> KilnApp:
    app: KilnApp = pilot.app  # type: ignore[assignment]
    await pilot.pause()
    await app.main.replay(long_session(steps))
    await pilot.pause()
    return app


async def test_a_replayed_1000_step_session_mounts_its_end_and_search_reaches_the_start() -> None:
    async with offline_app().run_test(size=SIZE) as pilot:
        app = await _replayed(pilot, 1000)
        transcript = app.main.transcript
        assert len(transcript.entries) > 4000
        assert len(transcript.mounted) <= BATCH  # the last screen and a margin, not 4,000
        assert transcript.hi == len(transcript.entries)
        assert isinstance(transcript.mounted[-2], FinishedLine)  # then the /apply hint
        await wait_for(pilot, lambda: on_screen(app, "All 1000 steps done"), timeout=5)
        assert on_screen(app, "tests: 1000 passed")  # the last steps, above the summary

        index = await app.main.find("marker w3x")
        assert index is not None and index < 30
        assert len(transcript.mounted) <= WINDOW
        await wait_for(pilot, lambda: on_screen(app, "marker w3x"), timeout=5)
        # Enter again: the one before it (only step 3 says "w3x"): none, and it says so.
        assert await app.main.find("marker w3x") is None


async def test_scrolling_up_reaches_the_first_block_with_a_bounded_window() -> None:
    async with offline_app().run_test(size=SIZE) as pilot:
        app = await _replayed(pilot, 120)
        transcript = app.main.transcript
        for _ in range(200):
            if transcript.lo == 0 and transcript.scroll_y == 0:
                break
            transcript.scroll_home(animate=False, immediate=True)
            await pilot.pause()
            assert len(transcript.mounted) <= WINDOW
        assert transcript.lo == 0
        await wait_for(pilot, lambda: on_screen(app, "Step 1: checking"), timeout=5)
        # And back down: the end mounts again and the window stays bounded.
        for _ in range(200):
            if transcript.hi == len(transcript.entries) and transcript.is_vertical_scroll_end:
                break
            transcript.scroll_end(animate=False, immediate=True)
            await pilot.pause()
            assert len(transcript.mounted) <= WINDOW
        await wait_for(pilot, lambda: on_screen(app, "All 120 steps done"), timeout=5)


async def test_the_labels_at_either_end_of_the_window_count_what_is_not_mounted() -> None:
    async with offline_app().run_test(size=SIZE) as pilot:
        app: KilnApp = pilot.app  # type: ignore[assignment]
        await pilot.pause()
        transcript = app.main.transcript
        assert not transcript.query(".window-edge")  # nothing beyond the window yet
        await _replayed(pilot, 200)
        first = transcript.children[0]
        assert first.has_class("window-edge") and first.display
        assert str(first.render()) == f"↑ {transcript.lo} earlier blocks: scroll up to see them"
        assert transcript.children[-1] is transcript.mounted[-1]  # the end: no label below
        index = transcript.find("marker w3x")
        assert index is not None
        await transcript.reveal(index)  # the start's window: the end is beyond it now
        await pilot.pause()
        last = transcript.children[-1]
        later = len(transcript.entries) - transcript.hi
        assert last.has_class("window-edge") and last.display
        assert str(last.render()) == f"↓ {later} later blocks: scroll down to see them"
        assert transcript.children[0] is transcript.mounted[0] or not transcript.children[0].display
        assert [w for w in transcript.children if not w.has_class("window-edge")] == (
            transcript.mounted
        )


async def test_a_long_last_reply_is_mounted_without_the_blocks_a_screen_cannot_show() -> None:
    async with offline_app().run_test(size=SIZE) as pilot:
        app: KilnApp = pilot.app  # type: ignore[assignment]
        await pilot.pause()
        events = long_session(30)
        long_reply = "".join(
            f"paragraph {k}: " + "words of a long reply " * 40 + "\n\n" for k in range(20)
        )
        events[-1:-1] = [TextDelta(long_reply), AssistantMessage(long_reply)]
        await app.main.replay(events)
        await pilot.pause()
        transcript = app.main.transcript
        # The reply alone fills the screen: it and what follows are mounted, not FIRST blocks.
        assert 1 < len(transcript.mounted) < FIRST
        assert transcript.hi == len(transcript.entries)
        await wait_for(pilot, lambda: on_screen(app, "All 30 steps done"), timeout=5)
        # The blocks above it mount as the person scrolls up, as always.
        for _ in range(100):
            if on_screen(app, "Step 30: checking"):
                break
            transcript.scroll_to(y=transcript.scroll_y - 20, animate=False, immediate=True)
            await pilot.pause()
        assert on_screen(app, "Step 30: checking")


async def test_a_tool_call_opened_stays_open_when_its_block_is_built_again() -> None:
    async with offline_app().run_test(size=SIZE) as pilot:
        app = await _replayed(pilot, 300)
        transcript = app.main.transcript
        index = await app.main.find("token5 =")  # in step 5's command output only
        assert index is not None
        entry = transcript.entries[index]
        assert isinstance(entry, ToolEntry) and not entry.collapsed
        block = entry.widget
        assert isinstance(block, ToolCallBlock) and not block.collapsed
        await transcript.reveal(len(transcript.entries) - 1)  # far away: step 5 unmounted
        assert entry.widget is None
        await transcript.reveal(index)
        assert isinstance(entry.widget, ToolCallBlock) and not entry.widget.collapsed
        entry.widget.collapsed = True  # closed by the person: remembered too
        await pilot.pause()
        assert entry.collapsed


async def test_live_events_keep_at_most_a_window_mounted_while_following() -> None:
    async with offline_app().run_test(size=SIZE) as pilot:
        app: KilnApp = pilot.app  # type: ignore[assignment]
        await pilot.pause()
        transcript = app.main.transcript
        for number, event in enumerate(long_session(30)):
            await app.show(event)
            assert len(transcript.mounted) <= WINDOW  # however fast they come
            if number > 150:  # then a frame after each, as the app draws them
                await pilot.pause()
        await pilot.pause()
        assert len(transcript.entries) > WINDOW
        # A screen and a margin while following (more only to fill two screens).
        assert len(transcript.mounted) <= FOLLOWING + 10
        assert transcript.hi == len(transcript.entries)
        await wait_for(pilot, lambda: on_screen(app, "All 30 steps done"), timeout=5)
        assert transcript.find("marker w1x") is not None  # the unmounted start is searchable


async def test_the_find_bar_searches_and_escape_closes_it() -> None:
    async with offline_app().run_test(size=SIZE) as pilot:
        app = await _replayed(pilot, 200)
        await pilot.press("ctrl+f")
        await pilot.pause()
        assert app.main.finding
        await pilot.press(*"w2x", "enter")
        await wait_for(pilot, lambda: on_screen(app, "marker w2x"), timeout=5)
        await pilot.press("escape")
        await pilot.pause()
        assert not app.main.finding and app.main.prompt.has_focus


async def test_resuming_a_1000_step_session_draws_its_last_steps_and_summary(
    tmp_path: Path,
) -> None:
    repo = calc_repo(tmp_path / "repo")
    store = Store()
    for event in long_session(1000, session_id="long1", repo=str(repo)):
        store.record("long1", event)
    store.close()
    settings = load_settings(
        repo,
        {
            "models.main.base_url": "http://127.0.0.1:9/v1",
            "models.main.model": "scripted-model",
            "sandbox.backend": "bwrap",  # the drawing comes before the sandbox: no Docker
        },
        env={},
    )
    app = KilnApp(settings, repo, resume="long")  # a unique prefix of the id
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: on_screen(app, "All 1000 steps done"), timeout=20)
        assert on_screen(app, "tests: 1000 passed")
        transcript = app.main.transcript
        assert len(transcript.mounted) <= BATCH + 3  # + notes
        # Its end was drawn from the store; the steps before it join once it loads, which
        # starts a tick after that first paint.
        await wait_for(pilot, lambda: len(transcript.entries) > 4000, timeout=20)
        assert transcript.lo > 3900
        assert transcript.find("marker w1x") is not None
        assert on_screen(app, "All 1000 steps done")
        await app.close_session()
