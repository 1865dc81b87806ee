"""Must hold: prompts that cache, and a long session that never overflows the window.

- Over a scripted 30-request session each request's messages start with the previous
  request's, byte for byte, the tools never change, and the server's own cached-token
  figure covers at least 99% of the previous prompt.
- A scripted 150-step session against a server that declares an 8k window (and refuses
  longer prompts, as llama.cpp does): no request over 8k tokens by the server's count,
  compaction events in stream-json, and the task still finishes.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
from pathlib import Path
from typing import Any

from agent.llm.scripted.server import ScriptedServer
from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import KILN


def run(command: str) -> dict[str, Any]:
    return {"tool_calls": [{"name": "run", "arguments": {"command": command}}]}


FINISH = {"tool_calls": [{"name": "finish", "arguments": {"summary": "done"}}]}
WRITE = {"tool_calls": [{"name": "write_file", "arguments": {
    "path": "notes.md", "content": "# notes\nlong session done\n"}}]}  # fmt: skip


def kiln_run(
    repo: Path, server: ScriptedServer, *extra: str, env: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    done = subprocess.run(
        [KILN, "run", "walk the repository", "--repo", str(repo), "--approval", "full-auto",
         "--output-format", "stream-json", "--base-url", server.base_url, "--model", "m",
         "--max-steps", "400", *extra],
        capture_output=True, text=True, timeout=600, env={**os.environ, **(env or {})},
    )  # fmt: skip
    assert done.stdout, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_every_request_extends_the_previous_one_and_the_server_caches_it(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = make_git_repo(tmp_path / "repo", {"a.py": "x = 1\n", "b.py": "y = 2\n"})
    turns = [run(f"echo step {i}; cat a.py b.py") for i in range(28)] + [WRITE, FINISH]
    with ScriptedServer(turns) as server:
        events = kiln_run(repo, server)
        requests = server.chat_requests
    assert events[-1]["stop_reason"] == "done" and len(requests) == 30
    for previous, current in itertools.pairwise(requests):
        before, now = previous.body["messages"], current.body["messages"]
        assert now[: len(before)] == before  # the new request only appends
        assert json.dumps(current.body["tools"]) == json.dumps(previous.body["tools"])
        assert current.cached_tokens >= 0.99 * previous.prompt_tokens
    assert not [e for e in events if e["type"] == "compacted"]  # far from full: untouched


def test_anthropic_requests_read_the_previous_request_from_the_cache(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = make_git_repo(tmp_path / "repo", {"a.py": "x = 1\n", "b.py": "y = 2\n"})
    turns = [run(f"echo step {i}; cat a.py b.py") for i in range(28)] + [WRITE, FINISH]
    with ScriptedServer(turns) as server:
        events = kiln_run(repo, server, "--provider", "anthropic", env={"ANTHROPIC_API_KEY": "k"})
        requests = server.chat_requests
    assert events[-1]["stop_reason"] == "done" and len(requests) == 30
    for previous, current in itertools.pairwise(requests):
        # Cache reads (the API's own figure) cover what the previous request sent.
        assert current.cached_tokens >= 0.99 * previous.prompt_tokens


def test_a_150_step_session_never_overflows_an_8k_window(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = make_git_repo(tmp_path / "repo", {"a.py": "x = 1\n"})
    work = [run(f"echo step {i}; seq 1 400") for i in range(215)]
    work[75:78] = [WRITE] * 3  # one of them may go to a summary request instead
    # Summary requests take turns too (a tool call is no summary: kiln writes its own),
    # so the script has more work than 150 steps and more finishes than it needs.
    script = {"context_window": 8192, "turns": [*work, *[FINISH] * 40]}
    with ScriptedServer(script) as server:
        events = kiln_run(repo, server)
        requests = server.chat_requests
    over = [r.prompt_tokens for r in requests if r.prompt_tokens > 8192]
    assert not over and all(r.outcome == "ok" for r in requests)
    compactions = [e for e in events if e["type"] == "compacted"]
    assert compactions and {c["tier"] for c in compactions} >= {1, 2}
    assert all(c["tokens_after"] < c["tokens_before"] for c in compactions)
    assert any("instruction(s) of the person" in " ".join(c["kept"]) for c in compactions)
    result = events[-1]
    assert result["stop_reason"] == "done" and result["steps"] >= 150
    assert result["files_changed"] == ["notes.md"]
    # The person's task survived every summary, word for word.
    last = requests[-1].body["messages"]
    assert any("walk the repository" in str(m.get("content")) for m in last[:3])
