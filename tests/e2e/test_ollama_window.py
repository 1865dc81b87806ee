"""Ollama as shipped (a 4096-token context served of the model's 32768, a longer prompt
cut silently on its OpenAI endpoint: H1, H2), through the installed `kiln run` and the
strict Ollama server: kiln asks Ollama's native API for the window it needs, so prompts
far over 4096 go through whole; told to use the OpenAI endpoint, it keeps every prompt
within what is served, or stops with one sentence before sending one that is not."""

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

# Two files of some 8,000 characters each: read together, over the 4096 tokens served.
TABLES = {
    f"table_{n}.py": "".join(f"VALUE_{n}_{i} = {i} + {i} * {i}\n" for i in range(300))
    for n in (1, 2)
}


def turns() -> list[dict[str, Any]]:
    calls = [
        [{"name": "read_file", "arguments": {"path": name}} for name in TABLES],
        [{"name": "read_file", "arguments": {"path": "calc.py"}}],
        [{"name": "edit_file",
          "arguments": {"path": "calc.py", "old_text": "a - b", "new_text": "a + b"}}],
        [{"name": "run_tests", "arguments": {}}],
        [{"name": "finish", "arguments": {"summary": "add adds now"}}],
    ]  # fmt: skip
    return [{"tool_calls": made} for made in calls]


def kiln_run(repo: Path, server: StrictServer, *flags: str) -> tuple[int, list[dict[str, Any]]]:
    done = subprocess.run(
        [KILN, "run", "fix add so the test passes", "--repo", str(repo), "--approval",
         "full-auto", "--apply", "--output-format", "stream-json", "--base-url",
         server.base_url, "--model", server.model, *flags],
        capture_output=True, text=True, timeout=300, env={**os.environ},
    )  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()]


def test_kiln_asks_ollama_for_its_window_and_no_prompt_is_cut(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS, **TABLES})
    with StrictServer("ollama", turns()) as server:
        code, events = kiln_run(repo, server)
        chats = [r for r in server.chat_requests if r.turn is not None]
        reported = server.usage_reported
    result = events[-1]
    assert server.refusals == [] and server.truncations == []
    assert code == 0 and result["applied"] == ["calc.py"], result
    assert (repo / "calc.py").read_text() == FIXED
    assert len(chats) == 5 and {r.path for r in chats} == {"/api/chat"}
    assert all(r.body["options"]["num_ctx"] == 32768 for r in chats)
    assert max(u.prompt for u in reported) > 4096  # more than a default Ollama serves
    usage = result["usage"]
    assert usage["uncached_input_tokens"] == sum(u.prompt for u in reported)
    assert usage["output_tokens"] == sum(u.output for u in reported)


def test_on_its_openai_endpoint_no_prompt_over_the_served_window_reaches_it(
    tmp_path: Path,
) -> None:
    """The person named the OpenAI endpoint, and Ollama serves 1024 tokens: kiln's prompt
    does not fit even cut, so the run stops before sending it, saying how to raise it."""
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})
    with StrictServer("ollama", turns(), context=1024) as server:
        code, events = kiln_run(repo, server, "--provider", "openai")
        chats = server.chat_requests
    result = events[-1]
    assert server.truncations == [] and chats == []
    assert result["stop_reason"] == "model_error" and code != 0
    said = json.dumps(events)
    assert "Ollama serves qwen2.5-coder:7b a 1,024-token context" in said
    assert "OLLAMA_CONTEXT_LENGTH" in result["summary"] + said
