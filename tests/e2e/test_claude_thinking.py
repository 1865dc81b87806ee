"""Claude with extended thinking through the installed `kiln run --effort high` and the
strict Anthropic server (thinking blocks signed by its HMAC, C1-C11): a scripted fix over
five requests, one thinking block redacted, lands with no request refused; every request
thinks with the budget `high` names, within the model's output limit, and sends each
block back as it came; the meter's tokens are the server's."""

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
MODEL = "claude-sonnet-4-5-20250929"


def turns() -> list[dict[str, Any]]:
    calls = [
        {"name": "read_file", "arguments": {"path": "calc.py"}},
        {"name": "edit_file",
         "arguments": {"path": "calc.py", "old_text": "a - b", "new_text": "a + b"}},
        {"name": "run_tests", "arguments": {}},
        {"name": "read_file", "arguments": {"path": "test_calc.py"}},
        {"name": "finish", "arguments": {"summary": "add adds now"}},
    ]  # fmt: skip
    made: list[dict[str, Any]] = []
    for n, call in enumerate(calls, 1):
        turn: dict[str, Any] = {"tool_calls": [call], "reasoning": f"Step {n}: {call['name']}."}
        if n == 3:
            turn["redacted_thinking"] = True
        made.append(turn)
    return made


def test_claude_thinks_at_high_effort_and_every_block_goes_back(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})
    with StrictServer("anthropic", turns(), model=MODEL) as server:
        done = subprocess.run(
            [KILN, "run", "fix add so the test passes", "--repo", str(repo), "--approval",
             "full-auto", "--apply", "--output-format", "stream-json", "--base-url",
             server.base_url, "--model", MODEL, "--provider", "anthropic", "--effort", "high"],
            capture_output=True, text=True, timeout=300,
            env={**os.environ, "KILN_API_KEY": "sk-ant-test"},
        )  # fmt: skip
        requests = [r for r in server.chat_requests if r.turn is not None]
        reported = server.usage_reported
        refusals = server.refusals
    assert "Traceback" not in done.stderr, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    result = events[-1]
    assert refusals == []
    assert done.returncode == 0 and result["applied"] == ["calc.py"], result
    assert (repo / "calc.py").read_text() == FIXED
    assert len(requests) == 5
    for request in requests:
        assert request.body["thinking"] == {"type": "enabled", "budget_tokens": 24576}
        assert request.body["max_tokens"] == 50000 and "temperature" not in request.body
        assert request.headers["anthropic-beta"] == "interleaved-thinking-2025-05-14"
    # The last request carries back each earlier turn's block, the redacted one whole.
    sent = [m["content"][0] for m in requests[-1].body["messages"] if m["role"] == "assistant"]
    assert [b["type"] for b in sent] == ["thinking", "thinking", "redacted_thinking", "thinking"]
    assert sent[0]["thinking"] == "Step 1: read_file." and sent[0]["signature"]
    # The meter's tokens are what the server reported; Anthropic reports thinking inside
    # output_tokens and no count of its own, so kiln's reasoning count stays 0.
    usage = result["usage"]
    assert usage["output_tokens"] == sum(u.output for u in reported)
    assert usage["uncached_input_tokens"] == sum(u.uncached for u in reported)
    assert usage["cached_input_tokens"] == sum(u.cached for u in reported)
    assert usage["cache_write_tokens"] == sum(u.cache_write for u in reported)
    assert usage["reasoning_tokens"] == 0
    thought = [e for e in events if e.get("type") == "assistant_message" and e.get("reasoning")]
    assert thought and thought[0]["reasoning"] == "Step 1: read_file."
