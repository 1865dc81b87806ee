"""A thinking model's reasoning in the TUI: one collapsed line while and after it streams
(how much it thought), its text when opened; the same after `kiln --resume`, from the
stored step. The scripted model streams the reasoning as `reasoning_content`."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Collapsible

from agent.llm.scripted.server import ScriptedServer
from tests.tui.live import finished, live_app, ready, running, submit, wait_for
from tests.tui.scripts import calc_repo
from tui.widgets.thinking import ThinkingBlock

pytestmark = pytest.mark.usefixtures("docker_ready")

THOUGHT = "The person asks for a greeting. A short one will do, nothing to run."


async def test_reasoning_is_one_collapsed_line_that_opens_and_comes_back_on_resume(
    tmp_path: Path,
) -> None:
    repo = calc_repo(tmp_path / "repo")
    with ScriptedServer([{"reasoning": THOUGHT, "text": "Hello there."}]) as server:
        app = live_app(repo, server)
        async with running(app) as pilot:
            await ready(pilot)
            await submit(pilot, "say hello")
            await wait_for(pilot, lambda: finished(app))
            block = await wait_for(pilot, lambda: next(iter(app.query(ThinkingBlock)), None))
            assert block.collapsed and block.title == f"Thinking · {len(THOUGHT.split())} words"
            assert not block.query(".thinking-text")  # nothing of the text mounted yet
            block.collapsed = False
            text = await wait_for(pilot, lambda: next(iter(block.query(".thinking-text")), None))
            assert THOUGHT in str(text.render())
            session_id = app.session.session_id  # type: ignore[union-attr]
    with ScriptedServer([]) as server:
        again = live_app(repo, server, resume=session_id)
        async with running(again) as pilot:
            await ready(pilot)
            replayed = await wait_for(pilot, lambda: next(iter(again.query(ThinkingBlock)), None))
            assert (
                replayed.collapsed and replayed.title == f"Thinking · {len(THOUGHT.split())} words"
            )
            assert isinstance(replayed, Collapsible) and replayed.said == THOUGHT
