"""Line mode: prompt-toolkit REPL over a real Session; it never imports Textual."""

from __future__ import annotations

import asyncio
import io
import subprocess
import sys
from pathlib import Path

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from agent.approval import Mode
from agent.llm.scripted.server import ScriptedServer
from agent.settings.config import load_settings
from tests.tui.scripts import CALC, FIXED, calc_repo, fix_calc_turns
from tui.chat import LineMode
from tui.launch import Launch


def test_line_mode_does_not_import_textual() -> None:
    code = "import sys, tui.chat; print([m for m in sys.modules if m.startswith('textual')])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.usefixtures("docker_ready")
async def test_line_mode_asks_at_a_prompt_and_applies_after_yes(tmp_path: Path) -> None:
    repo = calc_repo(tmp_path / "repo")
    with ScriptedServer(fix_calc_turns()) as server, create_pipe_input() as keys:
        settings = load_settings(
            repo, {"models.main.base_url": server.base_url, "models.main.model": "m"}, env={}
        )
        screen = io.StringIO()
        with create_app_session(input=keys, output=DummyOutput()):
            # Built inside the app session so its prompts read the pipe, not the terminal.
            line_mode = LineMode(
                Launch(settings, repo, Mode.ASK, None), Console(file=screen, width=100)
            )
            runner = asyncio.ensure_future(line_mode.run())

            async def shows(text: str) -> None:
                for _ in range(1200):
                    if text in screen.getvalue() or runner.done():
                        break
                    await asyncio.sleep(0.1)
                assert text in screen.getvalue(), screen.getvalue()

            await shows("Working on")
            keys.send_text("fix add\n")
            await shows("edit calc.py")
            keys.send_text("y\n")
            await shows("done · ")
            await shows("apply the changes")  # offered at the end of the task
            keys.send_text("n\n")
            await shows("Not applied")
            assert (repo / "calc.py").read_text() == CALC
            keys.send_text("/apply\n")
            await shows("/apply writes")  # the offer said how to apply later
            await asyncio.sleep(0.5)
            assert screen.getvalue().count("apply the changes") >= 2
            assert (repo / "calc.py").read_text() == CALC  # asked, not yet answered
            keys.send_text("y\n")
            await shows("Applied to your working tree: calc.py")
            keys.send_text("/quit\n")
            assert await asyncio.wait_for(runner, 60) == 0
    shown = screen.getvalue()
    assert "edit calc.py" in shown and "+    return a + b" in shown
    assert "Applied to your working tree: calc.py" in shown
    assert (repo / "calc.py").read_text() == FIXED
