"""No Docker engine: every front end says the same one sentence, and none prints a traceback.

`DOCKER_HOST` names a socket nobody listens on. With `--backend docker` kiln must not
swap the sandbox, so `kiln run`, `kiln chat --plain` and the TUI each end in the engine's
sentence; with the default backend kiln falls back to bubblewrap and says so.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from agent.llm.scripted.server import ScriptedServer
from agent.settings.config import load_settings
from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import KILN
from tests.scripted import BUGGY_REPO
from tests.tui.live import transcript_text, wait_for
from tui.app import KilnApp

FINISH = [{"tool_calls": [{"name": "finish", "arguments": {"summary": "nothing to do"}}]}]


@pytest.fixture
def dead_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    socket = f"unix://{tmp_path}/no-engine.sock"
    monkeypatch.setenv("DOCKER_HOST", socket)
    return socket


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_git_repo(tmp_path / "repo", BUGGY_REPO)


def _kiln(repo: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [KILN, *args], cwd=repo, input=stdin, capture_output=True, text=True, timeout=60
    )


def _engine_sentence(text: str, socket: str) -> str:
    lines = [line for line in text.splitlines() if "Docker engine" in line]
    assert len(lines) == 1, text
    assert socket in lines[0] and "Traceback" not in text
    return lines[0].removeprefix("kiln: ").strip()


async def test_every_front_end_says_the_same_sentence(repo: Path, dead_engine: str) -> None:
    with ScriptedServer(FINISH) as server:
        model = ["--base-url", server.base_url, "--model", "scripted-model"]
        run = _kiln(repo, "run", "fix add", "--backend", "docker", *model)
        chat = _kiln(repo, "chat", "--plain", "--backend", "docker", *model, stdin="fix add\n")
        assert run.returncode == 5 and chat.returncode == 5, (run.stderr, chat.stderr)
        sentence = _engine_sentence(run.stderr, dead_engine)
        assert _engine_sentence(chat.stderr, dead_engine) == sentence
        assert sentence.endswith("or use `--backend bwrap` (docs/sandbox.md).")

        overrides = {
            "models.main.base_url": server.base_url,
            "models.main.model": "scripted-model",
            "sandbox.backend": "docker",
        }
        app = KilnApp(load_settings(repo, overrides, env={}), repo)
        async with app.run_test(size=(120, 40)) as pilot:
            side = app.main.side.query_one("#sandbox")
            await wait_for(pilot, lambda: "not running" in str(side.render()), timeout=30)
            shown = " ".join(transcript_text(app).split())
            assert sentence in shown
            # The TUI stays usable: a task tries to start the session again and says why not.
            app.main.prompt.load_text("fix add")
            await pilot.press("enter")
            await wait_for(pilot, lambda: "Starting the session again" in transcript_text(app))
            await wait_for(pilot, lambda: transcript_text(app).count("Docker engine") == 2)
            assert app.session is None and not app.running


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
def test_default_backend_falls_back_to_bubblewrap_and_says_so(repo: Path, dead_engine: str) -> None:
    with ScriptedServer(FINISH) as server:
        model = ["--base-url", server.base_url, "--model", "scripted-model"]
        done = _kiln(repo, "run", "say hi", "--output-format", "stream-json", *model)
    events = [json.loads(line) for line in done.stdout.splitlines()]
    started = next(e for e in events if e["type"] == "session_started")
    assert started["backend"] == "bwrap"
    notes = [e["message"] for e in events if e["type"] == "notice"]
    assert any("bubblewrap" in n and "start Docker" in n for n in notes), notes
    assert "Traceback" not in done.stderr and events[-1]["type"] == "result"


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
async def test_the_tui_falls_back_to_bubblewrap_and_shows_it(repo: Path, dead_engine: str) -> None:
    with ScriptedServer(FINISH) as server:
        overrides = {"models.main.base_url": server.base_url, "models.main.model": "scripted"}
        app = KilnApp(load_settings(repo, overrides, env={}), repo)
        async with app.run_test(size=(120, 40)) as pilot:
            side = app.main.side.query_one("#sandbox")
            await wait_for(pilot, lambda: "ready · bwrap" in str(side.render()), timeout=30)
            assert " bwrap " in app.main.meter.render_line(0).text
            assert "bubblewrap sandbox" in transcript_text(app)
            await app.close_session()
