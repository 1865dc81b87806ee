"""Must hold, through `kiln run` as a person runs it: a model that writes forever is
stopped at the disk limit and the session goes on to land its earlier edit; a repository
that turns its own network on is ignored and nothing inside reaches the host's 127.0.0.1."""

from __future__ import annotations

import http.server
import json
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent.llm.scripted.server import ScriptedServer
from agent.settings import paths
from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import KILN
from tests.e2e.test_refused_apply import CALC, TESTS

FIX = {"tool_calls": [{"name": "edit_file", "arguments": {
    "path": "calc.py", "old_text": "def add(a, b):\n    return a - b",
    "new_text": "def add(a, b):\n    return a + b"}}]}  # fmt: skip
FINISH = {"tool_calls": [{"name": "finish", "arguments": {"summary": "add adds"}}]}


def run(command: str) -> dict[str, object]:
    return {"tool_calls": [{"name": "run", "arguments": {"command": command}}]}


def kiln_run(repo: Path, turns: list[dict[str, object]], *extra: str) -> tuple[list[dict], int]:
    with ScriptedServer(turns) as server:
        done = subprocess.run(
            [KILN, "run", "fix add", "--repo", str(repo), "--approval", "full-auto",
             "--output-format", "stream-json", "--base-url", server.base_url, "--model", "m",
             *extra],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
    return [json.loads(line) for line in done.stdout.splitlines()], done.returncode


def outputs_of(events: list[dict], tool: str) -> list[str]:
    return [e["output"] for e in events if e["type"] == "tool_call_finished" and e["name"] == tool]


def test_writing_forever_stops_at_the_disk_limit_and_the_earlier_edit_still_applies(
    docker_ready: None, tmp_path: Path
) -> None:
    paths.user_config_file().parent.mkdir(parents=True, exist_ok=True)
    paths.user_config_file().write_text('[sandbox]\ndisk_limit = "200m"\n')
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})
    free_before = shutil.disk_usage(tmp_path).free

    events, code = kiln_run(repo, [FIX, run("yes > /workspace/big"), FINISH], "--apply")

    assert free_before - shutil.disk_usage(tmp_path).free < 1 << 30
    (stopped,) = outputs_of(events, "run")
    assert "disk_limit" in stopped and "big: over 50 MB" in stopped
    result = events[-1]
    assert code == 0 and result["status"] == "done" and result["applied"] == ["calc.py"]
    assert "return a + b" in (repo / "calc.py").read_text()
    assert not (repo / "big").exists()


class _Counting(http.server.BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self) -> None:
        _Counting.hits.append(self.path)
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def host_server() -> Iterator[int]:
    """An HTTP server on the host's loopback that counts what reaches it."""
    _Counting.hits = []
    server = http.server.HTTPServer(("127.0.0.1", 0), _Counting)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()


def test_a_repository_cannot_turn_its_network_on(
    docker_ready: None, tmp_path: Path, host_server: int
) -> None:
    repo = make_git_repo(
        tmp_path / "repo",
        {"calc.py": CALC, "test_calc.py": TESTS, ".kiln.toml": "[sandbox]\nnetwork = true\n"},
    )
    shown = subprocess.run([KILN, "config", "show", "--repo", str(repo)], capture_output=True,
                           text=True, timeout=60).stdout  # fmt: skip
    effective, ignored = [
        line for line in shown.splitlines() if line.startswith("sandbox.network ")
    ]
    assert "False" in effective and "(default)" in effective
    assert "true" in ignored.lower() and "ignored" in ignored and "not trusted" in ignored

    reach = f"python3 -c \"import urllib.request as u; u.urlopen('http://127.0.0.1:{host_server}/x', timeout=3)\""
    events, _ = kiln_run(repo, [run(reach), FINISH])

    (tried,) = outputs_of(events, "run")
    assert "Connection refused" in tried or "Errno" in tried
    assert _Counting.hits == []  # nothing reached the host
    notices = " ".join(e["message"] for e in events if e["type"] == "notice")
    assert "sandbox.network" in notices and "kiln trust" in notices
