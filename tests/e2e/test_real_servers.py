"""kiln against servers that check requests as the real ones do (`tests/strict/`): through
each, the installed `kiln run` does a scripted fix with tool calls over five requests, and
it lands with no request refused; where an effort is asked, the request bodies carry it
(or the thinking it maps to); the meter's tokens equal what the server reported. And a
thinking session resumed with `kiln --resume`'s store and continued is still accepted."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import KILN
from tests.strict import StrictServer

pytestmark = pytest.mark.usefixtures("docker_ready")

CALC = "def add(a, b):\n    return a - b\n"
TESTS = (
    "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n"
    "    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n"
)
FIXED = "def add(a, b):\n    return a + b\n"


def fix_turns(thinking: bool) -> list[dict[str, Any]]:
    """Five requests: look, plan, edit, test, finish; a thinking model reasons before each."""
    calls = [
        {"name": "read_file", "arguments": {"path": "calc.py"}},
        {"name": "update_plan", "arguments": {"steps": [{"title": "fix add", "status": "in_progress"}]}},
        {"name": "edit_file", "arguments": {"path": "calc.py", "old_text": "a - b", "new_text": "a + b"}},
        {"name": "run_tests", "arguments": {}},
        {"name": "finish", "arguments": {"summary": "add adds now"}},
    ]  # fmt: skip
    turns: list[dict[str, Any]] = []
    for n, call in enumerate(calls, 1):
        turn: dict[str, Any] = {"tool_calls": [call]}
        if thinking:
            turn["reasoning"] = f"Step {n}: the test says add(2, 3) is 5, so {call['name']} next."
        turns.append(turn)
    return turns


# profile -> (kiln's flags beyond --base-url and --model, thinking turns, what the bodies
# carry when an effort is asked). OpenAI chat (gpt-5), Gemini, DeepSeek, Kimi, vLLM and an
# unknown model that refuses a parameter: `test_kiln_run_adapted.py`.
CASES: dict[str, tuple[list[str], bool, str]] = {
    "openai-responses": (["--effort", "high"], True, '"effort": "high"'),
    "anthropic": (["--provider", "anthropic", "--effort", "high"], True, '"type": "enabled"'),
    "ollama": ([], False, ""),
    "llamacpp": ([], False, ""),
}


def kiln_run(repo: Path, server: StrictServer, *flags: str) -> tuple[int, list[dict[str, Any]]]:
    done = subprocess.run(
        [KILN, "run", "fix add so the test passes", "--repo", str(repo), "--approval",
         "full-auto", "--apply", "--output-format", "stream-json", "--base-url",
         server.base_url, "--model", server.model, *flags],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "KILN_API_KEY": "sk-test"},
    )  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.parametrize("profile", list(CASES))
def test_a_scripted_fix_lands_through_a_strict_server(tmp_path: Path, profile: str) -> None:
    flags, thinking, effort_shown = CASES[profile]
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})
    with StrictServer(profile, fix_turns(thinking)) as server:
        code, events = kiln_run(repo, server, *flags)
        refused = server.refusals
        bodies = [json.dumps(r.body) for r in server.requests if r.turn is not None]
        reported = server.usage_reported
    result = events[-1]
    assert refused == [], refused
    assert code == 0 and result["applied"] == ["calc.py"], result
    assert (repo / "calc.py").read_text() == FIXED
    assert len(bodies) >= 5
    if effort_shown:
        assert all(effort_shown in body for body in bodies), bodies[0][:2000]
    # The meter's tokens are the server's: every request's usage, summed.
    usage = result["usage"]
    assert usage["output_tokens"] == sum(u.output for u in reported)
    prompt = usage["uncached_input_tokens"] + usage["cached_input_tokens"]
    prompt += usage["cache_write_tokens"]
    assert prompt == sum(u.prompt for u in reported)
    assert usage["cached_input_tokens"] == sum(u.cached for u in reported)
    # Reasoning tokens as the server's usage said them (Anthropic's folds them in output).
    said = [u.reasoning for u in reported if json.dumps(u.raw).find("reasoning_tokens") >= 0]
    assert usage["reasoning_tokens"] == sum(said)


RESUMED = {
    # profile -> (kiln's flags, settings for the resumed session, what the stored turns
    # must bring back to the server)
    "anthropic": (
        ["--provider", "anthropic", "--effort", "high"],
        {"models.main.provider": "anthropic", "models.main.effort": "high"},
        '"signature": "',
    ),
    "deepseek": ([], {}, '"reasoning_content": "Step'),
}


@pytest.mark.parametrize("profile", list(RESUMED))
async def test_a_thinking_session_resumed_and_continued_is_still_accepted(
    tmp_path: Path, profile: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent.approval import Mode
    from agent.settings.config import load_settings
    from tests.tui.live import finished, ready, running, submit, wait_for
    from tui.app import KilnApp

    monkeypatch.setenv("KILN_API_KEY", "sk-test")  # the resumed session's client reads it
    flags, settings_flags, brought_back = RESUMED[profile]
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})
    turns = fix_turns(True)
    answer = {"text": "add returns a + b now.", "reasoning": "The file says a + b."}
    script = [turns[0], turns[2], turns[4], turns[0], answer]  # look, edit, finish; ask
    with StrictServer(profile, script) as server:
        code, events = kiln_run(repo, server, *flags)
        assert code == 0 and server.refusals == [], server.refusals
        session_id = events[0]["session_id"]
        first = len(server.chat_requests)

        # `kiln --resume ID`: the stored conversation, thinking included, goes on.
        settings = load_settings(repo, {
            "models.main.base_url": server.base_url, "models.main.model": server.model,
            **settings_flags,
        }, env={})  # fmt: skip
        app = KilnApp(settings, repo, Mode.FULL_AUTO, resume=session_id)
        async with running(app) as pilot:
            await ready(pilot)
            await submit(pilot, "what does add return now?")
            await wait_for(pilot, lambda: len(server.chat_requests) > first + 1 and finished(app))
        resumed = [json.dumps(r.body) for r in server.chat_requests[first:]]
        assert server.refusals == [], server.refusals
    assert resumed and all(brought_back in body for body in resumed), resumed[0][:3000]
