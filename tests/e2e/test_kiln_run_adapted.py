"""The installed `kiln run` through the strict chat-completions servers (`tests/strict/`):
what kiln knows of a model is sent from the first request; a model it has no data for,
whose server refuses what it does not take, is adapted to once, said once, and the scripted
fix lands either way, the meter holding the server's own counts."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import KILN
from tests.e2e.test_real_servers import CALC, FIXED, TESTS
from tests.strict import StrictServer

pytestmark = pytest.mark.usefixtures("docker_ready")

CALLS: list[dict[str, Any]] = [
    {"name": "read_file", "arguments": {"path": "calc.py"}},
    {
        "name": "update_plan",
        "arguments": {"steps": [{"title": "fix add", "status": "in_progress"}]},
    },
    {
        "name": "edit_file",
        "arguments": {"path": "calc.py", "old_text": "a - b", "new_text": "a + b"},
    },
    {"name": "run_tests", "arguments": {}},
    {"name": "finish", "arguments": {"summary": "add adds now"}},
]
# Five requests: look, plan, edit, test, finish; a thinking model reasons before each.
FIX = [
    {"tool_calls": [call], "reasoning": f"Step {n}: add(2, 3) must be 5; {call['name']} next."}
    for n, call in enumerate(CALLS, 1)
]


def kiln_run(
    repo: Path, server: StrictServer, *flags: str
) -> tuple[int, list[dict[str, Any]], str]:
    done = subprocess.run(
        [KILN, "run", "fix add so the test passes", "--repo", str(repo), "--approval",
         "full-auto", "--apply", "--output-format", "stream-json", "--base-url",
         server.base_url, "--model", server.model, *flags],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "KILN_API_KEY": "sk-test"},
    )  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()], done.stderr


# profile, model, kiln's flags, what every request body carries, the refusal kiln adapts
# to (once) and its note.
CASES: list[tuple[str, str, list[str], str, str, str]] = [
    ("openai", "gpt-5", ["--effort", "high"], '"reasoning_effort": "high"', "", ""),
    ("gemini", "gemini-3-pro-preview", ["--effort", "low"], '"reasoning_effort": "low"', "", ""),
    ("deepseek", "deepseek-reasoner", [], '"reasoning_content"', "", ""),
    ("kimi", "kimi-k2-thinking", [], '"temperature": 1.0', "", ""),
    # A1 on a reasoning model kiln has no row for
    (
        "openai", "o5-mini", [], '"max_completion_tokens"', "A1",
        "o5-mini refused max_tokens: kiln sends max_completion_tokens from now on",
    ),
    # G1: vLLM started without --enable-auto-tool-choice
    (
        "vllm-no-auto-tools", "Qwen/Qwen2.5-Coder-7B-Instruct", [], "# Tools", "G1",
        "takes no native tool calls for Qwen/Qwen2.5-Coder-7B-Instruct: "
        "kiln writes tool calls as text from now on",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("profile", "model", "flags", "shown", "rule", "said"), CASES)
def test_a_scripted_fix_lands_with_at_most_one_adaptation(
    tmp_path: Path, profile: str, model: str, flags: list[str], shown: str, rule: str, said: str
) -> None:
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})
    with StrictServer(profile, FIX, model=model) as server:
        code, events, _ = kiln_run(repo, server, *flags)
        refused = [r.rule for r in server.refusals]
        served = [r for r in server.chat_requests if r.turn is not None]
        reported = server.usage_reported
    result = events[-1]
    assert refused == ([rule] if rule else [])  # none after the adaptation
    assert code == 0 and result["status"] == "done" and result["applied"] == ["calc.py"], result
    assert (repo / "calc.py").read_text() == FIXED
    assert len(served) == 5
    # Later requests carry what the first could not (reasoning to send back, for one).
    assert all(shown in json.dumps(r.body) for r in served[1:]), json.dumps(served[1].body)[:2000]
    adapted = [
        e["message"] for e in events if e.get("type") == "notice" and "from now on" in e["message"]
    ]
    if rule:
        assert len(adapted) == 1 and said in adapted[0], adapted
    else:
        assert adapted == []
    # The meter's tokens are the server's, reasoning tokens as its usage said them.
    usage = result["usage"]
    assert usage["output_tokens"] == sum(u.output for u in reported)
    assert usage["cached_input_tokens"] == sum(u.cached for u in reported)
    assert usage["uncached_input_tokens"] == sum(u.uncached for u in reported)
    said_reasoning = [u.reasoning for u in reported if "completion_tokens_details" in u.raw]
    assert usage["reasoning_tokens"] == sum(said_reasoning)
