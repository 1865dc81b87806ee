"""Must hold: in `kiln run`, what an untrusted repository's `.kiln.toml` would run (its
`[sandbox] setup`, image, hooks, MCP servers) is ignored, and said once on stderr in one
sentence naming it and `kiln trust`, whatever the output format; the JSON result carries
it in its `notes`. The installed `kiln run`, the scripted model over HTTP, the real Docker
sandbox."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.llm.scripted.server import ScriptedServer
from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import kiln
from tests.scripted import BUGGY_REPO

pytestmark = pytest.mark.usefixtures("docker_ready")

KILN_TOML = (
    '[sandbox]\nsetup = ["pip install --no-index ./vendor/tinydep"]\n\n'
    '[mcp_servers.notes]\ncommand = "notes-server"\n'
)
FINISH = [{"tool_calls": [{"name": "finish", "arguments": {"summary": "Nothing to do."}}]}]
SAID = (
    "This repository is not trusted as it is now, so kiln ignores what it would run "
    "(mcp_servers.notes, sandbox.setup in .kiln.toml); run `kiln trust` to honour it."
)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_git_repo(tmp_path / "repo", {**BUGGY_REPO, ".kiln.toml": KILN_TOML})


def _run(repo: Path, fmt: str, *extra: str) -> tuple[str, str]:
    with ScriptedServer({"model": "scripted", "turns": FINISH, "loop": True}) as server:
        done = kiln(
            "run", "What does calc.py do?", "--repo", str(repo), "--base-url",
            server.base_url, "--model", "scripted", "--output-format", fmt, *extra,
        )  # fmt: skip
    assert "Traceback" not in done.stderr
    return done.stdout, done.stderr


@pytest.mark.parametrize("fmt", ["json", "stream-json", "text"])
def test_an_ignored_setup_is_named_once_on_stderr(repo: Path, fmt: str) -> None:
    out, err = _run(repo, fmt)
    assert err.count(SAID) == 1, err
    assert "sandbox.setup, which kiln ignores" not in out + err  # not again, key by key
    if fmt == "json":
        assert SAID in json.loads(out.splitlines()[-1])["notes"]


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_attempts_name_it_once_for_all_of_them(repo: Path, fmt: str) -> None:
    _, err = _run(repo, fmt, "--attempts", "2")
    assert err.count(SAID) == 1, err
