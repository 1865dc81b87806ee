"""`kiln run --model gpt-5-codex`: the installed kiln speaks the Responses API on its own
(the model answers nothing else, B1), a scripted fix with reasoning over six requests lands,
each request sends the encrypted reasoning before back, and the meter is the server's."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from agent.llm.scripted.server import ScriptedServer, count_tokens
from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import KILN, SIX_STEP_FIX
from tests.scripted import BUGGY_REPO

THINKING_FIX: list[dict[str, Any]] = [
    {**turn, "reasoning": f"Step {n}: the test wants add(2, 3) to be 5."}
    for n, turn in enumerate(SIX_STEP_FIX, 1)
]


def test_a_responses_only_model_fixes_and_lands(docker_ready: None, tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", BUGGY_REPO)
    with ScriptedServer(THINKING_FIX) as server:
        done = subprocess.run(
            [KILN, "run", "make the tests pass", "--repo", str(repo), "--base-url",
             server.base_url, "--model", "gpt-5-codex", "--effort", "high", "--apply",
             "--output-format", "json"],
            capture_output=True, text=True, timeout=300,
            env={**os.environ, "KILN_API_KEY": "sk-test"},
        )  # fmt: skip
        sent = server.chat_requests
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == "done" and result["applied"] == ["calc.py"]
    assert (repo / "calc.py").read_text() == "def add(a, b):\n    return a + b\n"
    assert len(sent) == 6 and {r.path for r in sent} == {"/v1/responses"}
    assert all(r.outcome == "ok" for r in sent)
    for number, request in enumerate(sent):
        body = request.body
        assert body["reasoning"] == {"effort": "high", "summary": "auto"}
        assert body["store"] is False and "max_output_tokens" in body
        kinds = [item.get("type") for item in body["input"]]
        assert kinds.count("reasoning") == number  # every reasoning item before, sent back
        assert kinds.count("function_call") == kinds.count("function_call_output") == number
    usage = result["usage"]
    assert usage["uncached_input_tokens"] + usage["cached_input_tokens"] == sum(
        r.prompt_tokens for r in sent
    )
    assert usage["cached_input_tokens"] == sum(r.cached_tokens for r in sent) > 0
    assert usage["output_tokens"] == sum(r.completion_tokens for r in sent)
    assert usage["reasoning_tokens"] == sum(count_tokens(t["reasoning"]) for t in THINKING_FIX)
