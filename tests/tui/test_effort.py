"""/effort in a session: the next request carries the effort the model takes (gpt-5's
`reasoning_effort`, through the strict OpenAI server), the conversation kept; a word kiln
does not know is one sentence and changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.approval import Mode
from agent.settings.config import load_settings
from tests.strict import StrictServer
from tests.tui.live import finished, ready, running, submit, transcript_text, wait_for
from tests.tui.scripts import calc_repo
from tui.app import KilnApp

pytestmark = pytest.mark.usefixtures("docker_ready")


async def test_effort_changes_the_next_request_and_keeps_the_conversation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KILN_API_KEY", "sk-test")
    repo = calc_repo(tmp_path / "repo")
    with StrictServer("openai-gpt5", [{"text": "First."}, {"text": "Second."}]) as server:
        settings = load_settings(
            repo, {"models.main.base_url": server.base_url, "models.main.model": "gpt-5"}, env={}
        )
        app = KilnApp(settings, repo, Mode.ASK)
        async with running(app) as pilot:
            await ready(pilot)
            await submit(pilot, "what is calc.py for?")
            await wait_for(pilot, lambda: finished(app))
            await submit(pilot, "/effort huge")
            await wait_for(pilot, lambda: "`huge` is not an effort" in transcript_text(app))
            await submit(pilot, "/effort high")
            await wait_for(pilot, lambda: "sent as high" in transcript_text(app))
            await submit(pilot, "and what does sub do?")
            await wait_for(pilot, lambda: len(server.chat_requests) == 2 and finished(app))
        first, second = (r.body for r in server.chat_requests)
    assert "reasoning_effort" not in first and second["reasoning_effort"] == "high"
    assert any("what is calc.py for?" in str(m) for m in second["messages"])  # kept
    assert server.refusals == []
