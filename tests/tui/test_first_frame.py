"""What `kiln` imports before its first frame: the screen it paints shows no event, runs no
slash command and talks to no model, so none of their modules may load before it (each
frozen dataclass costs about 0.4 ms to build; the events alone were 15-25 ms of it).
Measured in a fresh interpreter, launched as `kiln` launches the app."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.tui.scripts import calc_repo

# Launched as agent/cli.py's `kiln` does (tui.launch, then the app), with no session: the
# modules loaded when the first frame reaches the driver are printed, then the app ends.
CHILD = """
import argparse, sys
from tui.launch import launch_from_args
from tui.app import KilnApp
launch = launch_from_args(argparse.Namespace(repo=sys.argv[1]))
app = KilnApp(launch.settings, launch.repo, launch.mode, connect=False)
display = app._display
def first_frame(screen, update):
    display(screen, update)
    if update is not None and app._display is not display:
        app._display = display
        print(" ".join(sorted(sys.modules)))
        app.exit()
app._display = first_frame
app.run(headless=True, size=(120, 36))
"""

# Loaded with the first event, command or session, after the first frame.
NOT_BEFORE = (
    "agent.events",  # thirty frozen dataclasses
    "agent.commands",  # the slash commands, and the custom ones read from their folders
    "agent.custom.commands",
    "agent.llm.base",  # the model client's messages and chunks
    "agent.session",
    "sandbox.base",  # the sandbox's protocol and results (its settings are sandbox.config)
    "markdown_it",  # the first reply's
    "tui.widgets.tool_call",  # the first tool call's (a Collapsible)
)


def loaded_at_first_frame(tmp_path: Path) -> set[str]:
    repo = calc_repo(tmp_path / "repo")
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    env["XDG_DATA_HOME"] = env["XDG_STATE_HOME"] = str(tmp_path / "data")
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(repo)],
        capture_output=True,
        text=True,
        env=env,
        cwd=Path(__file__).resolve().parents[2],
        timeout=60,
        check=True,
    )
    return set(out.stdout.split())


def test_the_first_frame_loads_no_event_command_or_session_module(tmp_path: Path) -> None:
    loaded = loaded_at_first_frame(tmp_path)
    assert "tui.widgets.meter" in loaded  # the frame was painted by the app itself
    assert "agent.event_values" in loaded  # what the meter and side panel show
    assert sorted(m for m in NOT_BEFORE if m in loaded) == []
