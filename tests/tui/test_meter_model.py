"""Must hold: the meter names the model the session resolved as soon as it is ready, before
any request: the embedded model is not configured anywhere, so nothing else names it."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.approval import Mode
from agent.llm.openai_compat import OpenAICompatClient
from agent.llm.scripted.server import ScriptedServer
from agent.local import MODELS, profile_for
from agent.local.catalog import DEFAULT_MODEL
from agent.settings.config import load_settings
from tests.tui.live import ready, running
from tests.tui.scripts import calc_repo
from tui.app import KilnApp

pytestmark = pytest.mark.usefixtures("docker_ready")


async def test_the_meter_names_the_embedded_model_before_the_first_request(
    tmp_path: Path,
) -> None:
    repo = calc_repo(tmp_path / "repo")
    spec = MODELS[DEFAULT_MODEL]
    with ScriptedServer([{"text": "never asked"}]) as server:
        # As `kiln` with no configuration does: the session resolves the embedded model's
        # client itself (here served by the scripted server instead of llama.cpp).
        client = OpenAICompatClient(profile_for(spec, server.base_url))
        settings = load_settings(repo, env={})
        assert settings.main_model is None or not settings.main_model.model
        app = KilnApp(settings, repo, Mode.ASK, client=client)
        assert app.meter_state.model == ""  # nothing configured names it
        async with running(app) as pilot:
            await ready(pilot)
            await pilot.pause()
            shown = app.main.meter.render_line(0).text
            assert shown.startswith(f" {spec.alias} ")
            assert server.chat_requests == []  # before the first request
