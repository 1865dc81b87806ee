"""`kiln run`'s output of what it did not write: a model's words and a command's output
reach the terminal with their control characters shown, and what the start said (the
repository's hooks not run, untrusted) is in the JSON result's `notes` as in the text.
The installed `kiln run`, the scripted model over HTTP, the real Docker sandbox."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.llm.scripted.server import ScriptedServer
from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import kiln
from tests.scripted import BUGGY_REPO

pytestmark = pytest.mark.usefixtures("docker_ready")

HOSTILE = "\x1b]0;pwned\x07\x1b[2J"
SHOUT = {"name": "run", "arguments": {"command": r"printf '\033]0;pwned\007\033[2J'; exit 3"}}
FINISH = {"name": "finish", "arguments": {"summary": f"It says {HOSTILE} here."}}
SCRIPT = [{"text": f"Looking {HOSTILE}", "tool_calls": [SHOUT]}, {"tool_calls": [FINISH]}]
CLAUDE_HOOKS = {"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "true"}]}]}}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    files = {**BUGGY_REPO, ".claude/settings.json": json.dumps(CLAUDE_HOOKS)}
    return make_git_repo(tmp_path / "repo", files)


def _run(repo: Path, server: ScriptedServer, fmt: str) -> tuple[str, str]:
    done = kiln(
        "run", "What does the script print?", "--repo", str(repo), "--base-url",
        server.base_url, "--model", "scripted", "--approval", "full-auto",
        "--output-format", fmt,
    )  # fmt: skip
    assert "Traceback" not in done.stderr
    return done.stdout, done.stderr


def test_text_output_shows_the_models_controls_escaped(repo: Path) -> None:
    with ScriptedServer(SCRIPT) as server:
        out, err = _run(repo, server, "text")
    assert "pwned" in err and "pwned" in out  # the command's output, the summary
    for raw in ("\x1b", "\x07"):
        assert raw not in out and raw not in err
    assert "\\x1b]0;pwned\\x07" in out


def test_the_json_result_carries_the_notes_the_text_shows(repo: Path) -> None:
    with ScriptedServer(SCRIPT) as server:
        _, err = _run(repo, server, "text")
    with ScriptedServer(SCRIPT) as server:
        out, _ = _run(repo, server, "json")
    result = json.loads(out.splitlines()[-1])
    hooks_notes = [n for n in result["notes"] if ".claude/settings.json" in n]
    assert len(hooks_notes) == 1 and "kiln trust" in hooks_notes[0]
    assert f"note: {hooks_notes[0]}" in err  # the same sentence the text output says
