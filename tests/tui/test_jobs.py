"""Jobs in the app (Pilot), a real session, the scripted model and the Docker sandbox: a
server the model started as a job outlives its request, shows in the side panel, `/jobs`
lists it with its uptime, port and last lines, and `/jobs stop 1` stops it; a job that
ends on its own while kiln waits for the person leaves the panel then."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.approval import Mode
from agent.llm.scripted.server import ScriptedServer
from tests.tui.live import finished, live_app, ready, running, submit, transcript_text, wait_for
from tests.tui.scripts import calc_repo

SERVE = "python3 -m http.server 8000"
SHORT = "sleep 4; echo done sleeping"
FETCH = "python3 -c \"import urllib.request as u; u.urlopen('http://127.0.0.1:8000/calc.py')\""


@pytest.mark.usefixtures("docker_ready")
async def test_jobs_lists_the_models_server_and_stops_it(tmp_path: Path) -> None:
    repo = calc_repo(tmp_path / "repo")
    turns = [
        {"tool_calls": [{"name": "run", "arguments": {"command": SERVE, "background": True}}]},
        {"tool_calls": [{"name": "run", "arguments": {"command": FETCH}}]},
        {"tool_calls": [{"name": "run", "arguments": {"command": SHORT, "background": True}}]},
        {"text": "The server answers on port 8000."},
    ]
    with ScriptedServer(turns) as server:
        app = live_app(repo, server, Mode.FULL_AUTO)
        async with running(app) as pilot:
            await ready(pilot)
            await submit(pilot, "is calc.py served over http?")
            await wait_for(pilot, lambda: finished(app))
            jobs_panel = app.main.side.query_one("#jobs")
            shown = str(jobs_panel.render())
            assert "● 1 since" in shown and SERVE in shown and "● 2 since" in shown

            # Job 2 ends on its own, no request running: the panel and transcript say so.
            await wait_for(pilot, lambda: "● 2" not in str(jobs_panel.render()), timeout=30)
            assert "job 2 exited after" in transcript_text(app)
            assert "● 1 since" in str(jobs_panel.render())

            await submit(pilot, "/jobs")
            listing = await wait_for(
                pilot, lambda: "job 1 · running" in transcript_text(app) and transcript_text(app)
            )
            assert "port 8000" in listing and SERVE in listing
            assert '"GET /calc.py HTTP/1.1" 200' in listing  # its last lines

            await submit(pilot, "/jobs stop 1")
            await wait_for(pilot, lambda: "Stopped job 1." in transcript_text(app))
            assert "job 1 stopped by you after" in transcript_text(app)
            await wait_for(pilot, lambda: "none running" in str(jobs_panel.render()))
            assert app.session is not None and app.session.sandbox is not None
            served, short = app.session.jobs()
            assert (served.ended_by, short.ended_by) == ("person", "exited")
            left = await app.session.sandbox.exec("pgrep -fc 'http[.]server' || true")
            assert left.output.strip() == "0"
