"""Server bookkeeping and the CLI's answers when nothing is installed or running."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from agent import local
from agent.local.catalog import MODELS
from agent.local.server import read_state, server_command, state_file


def _kiln(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "agent.cli", *args],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        cwd=Path(__file__).parents[2],
        timeout=60,
    )


def test_a_record_of_a_dead_or_foreign_process_is_dropped() -> None:
    sleeper = subprocess.Popen(["sleep", "30"])  # alive, but not a llama_cpp server
    try:
        record = {
            "pid": sleeper.pid,
            "port": 1,
            "model": "qwen2.5-coder-1.5b",
            "model_path": "/nowhere",
            "started_at": 0.0,
            "log": "/nowhere.log",
        }
        state_file().write_text(json.dumps(record))
        assert read_state() is None
        assert not state_file().exists(), "a stale record must not survive"
    finally:
        sleeper.kill()
        sleeper.wait()


def test_nothing_installed_means_no_default_profile() -> None:
    assert not local.is_installed()
    assert local.installed_model() is None
    assert local.default_profile() is None


def test_serve_without_a_model_says_how_to_install_it() -> None:
    result = _kiln("local", "serve")
    assert result.returncode == 1
    assert result.stderr.strip() == (
        "kiln: No local model is installed; run `kiln local install` to set up the local model."
    )
    assert "Traceback" not in result.stderr


def test_status_and_stop_when_nothing_runs() -> None:
    status = _kiln("local", "status")
    assert status.returncode == 1
    assert status.stdout.strip() == "not running; installed models: none"
    stop = _kiln("local", "stop")
    assert (stop.returncode, stop.stdout.strip()) == (0, "the local server is not running")


def test_the_server_listens_on_loopback_with_prompt_caching() -> None:
    cmd = server_command(MODELS["qwen2.5-coder-1.5b"], 4321)
    flags = dict(zip(cmd[3::2], cmd[4::2], strict=False))
    assert flags["--host"] == "127.0.0.1" and flags["--port"] == "4321"
    assert flags["--cache"] == "true"
    assert int(flags["--n_ctx"]) >= 8192
    assert flags["--logits_all"] == "false", "all-position logits cost ~10 GB at 16k context"
