"""Must hold: kiln's own embedded server named by its URL (`--base-url`) gets the embedded
model's profile, as with nothing configured; any other server keeps a generic one."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent.local.server import state_file
from agent.settings.config import load_settings
from agent.settings.resolve import resolve_profile
from tests.conftest import make_git_repo


@pytest.fixture
def embedded_server_record() -> Iterator[str]:
    """A process that is, by its command line, the embedded server, recorded as kiln
    records the one it starts; its URL is never dialled."""
    process = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)", "-m", "llama_cpp.server"]
    )
    port = 1  # nothing listens there: the profile must come from the record alone
    record = {
        "pid": process.pid, "port": port, "model": "qwen2.5-coder-1.5b",
        "model_path": "/nonexistent.gguf", "started_at": time.time(), "log": "/dev/null",
    }  # fmt: skip
    state_file().write_text(json.dumps(record))
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        process.kill()
        process.wait()


async def test_the_embedded_servers_url_gets_the_small_models_profile(
    tmp_path: Path, embedded_server_record: str
) -> None:
    repo = make_git_repo(tmp_path / "repo", {"a.py": "x = 1\n"})
    flags = {"models.main.base_url": embedded_server_record + "/", "models.main.model": "any"}
    profile = await resolve_profile(load_settings(repo, flags, env={}))
    assert profile.small_model and profile.tool_protocol == "text"
    assert profile.model == "qwen2.5-coder-1.5b" and profile.base_url == embedded_server_record
    other = {"models.main.base_url": "http://127.0.0.1:2/v1", "models.main.model": "m"}
    generic = await resolve_profile(load_settings(repo, other, env={}))
    assert not generic.small_model and generic.model == "m"
