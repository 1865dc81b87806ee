"""Jobs through `kiln run` as a person runs it, a scripted model over real HTTP and the real
Docker sandbox: a server started as a job answers a test command on 127.0.0.1, its log is
read and it is stopped; a job left running at `finish` is stopped and named in the result;
a hostile model's jobs (the host's network, an escape from the job's session, a disk
filler) are stopped as any command's would be; after a `kill -9` of kiln, `kiln sandbox
prune` leaves no container and no volume behind."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import docker
import pytest

from agent.llm.scripted.server import ScriptedServer
from agent.settings import paths
from tests.conftest import make_git_repo
from tests.e2e.test_host_protection import FINISH, FIX, outputs_of, run
from tests.e2e.test_kiln_run import KILN
from tests.e2e.test_refused_apply import CALC, TESTS

PAGE = "served from the sandbox\n"
FETCH = (
    'python3 -c "import urllib.request as u\n'
    "print(u.urlopen('http://127.0.0.1:8000/page.txt', timeout=10).read().decode())\""
)
COUNT = "for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline 2>/dev/null; echo; done"


def job(command: str) -> dict[str, Any]:
    return {"tool_calls": [{"name": "run", "arguments": {"command": command, "background": True}}]}


def read_job(job_id: str, *, stop: bool = False) -> dict[str, Any]:
    arguments: dict[str, Any] = {"job": job_id, **({"stop": True} if stop else {})}
    return {"tool_calls": [{"name": "run", "arguments": arguments}]}


def kiln_run(repo: Path, turns: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    with ScriptedServer(turns) as server:
        done = subprocess.run(
            [KILN, "run", "fix add", "--repo", str(repo), "--approval", "full-auto",
             "--output-format", "stream-json", "--base-url", server.base_url, "--model", "m"],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
    assert done.stdout, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()], done.returncode


def containers_of(session_id: str) -> list[Any]:
    client = docker.from_env()
    return client.containers.list(all=True, filters={"label": f"kiln.session={session_id}"})


def wait_gone(session_id: str) -> None:
    for _ in range(300):  # the container goes in the background once kiln lets go
        if not containers_of(session_id):
            return
        time.sleep(0.1)
    raise AssertionError(f"the sandbox of session {session_id} is still there")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_git_repo(
        tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS, "page.txt": PAGE}
    )


def test_a_server_job_is_fetched_read_stopped_and_one_left_running_is_named(
    docker_ready: None, repo: Path
) -> None:
    events, code = kiln_run(
        repo,
        [
            job("python3 -m http.server 8000"),
            run(FETCH),
            read_job("1"),
            read_job("1", stop=True),
            FIX,
            job("python3 -m http.server 8001"),
            FINISH,
        ],
    )
    result = events[-1]
    assert code == 0 and result["status"] == "done", result
    started, fetched, log, stopped, second = outputs_of(events, "run")
    assert started.startswith("Job 1 started") and "/kiln/services/job-1.log" in started
    assert PAGE.strip() in fetched and "[exit code 0]" in fetched
    assert '"GET /page.txt HTTP/1.1" 200' in log and "listening on port 8000" in log
    assert stopped.startswith("[job 1 stopped now after")
    assert second.startswith("Job 2 started")

    kinds = [(e["type"], e.get("job_id"), e.get("ended")) for e in events if "job" in e["type"]]
    assert kinds == [
        ("job_started", "1", None),
        ("job_stopped", "1", "stopped"),
        ("job_started", "2", None),
        ("job_stopped", "2", "run_ended"),
    ]
    finished_at = next(i for i, e in enumerate(events) if e["type"] == "finished")
    last_stop = max(i for i, e in enumerate(events) if e["type"] == "job_stopped")
    assert last_stop > finished_at  # stopped once the run ended, not before
    assert [(j["job_id"], j["ended"], j["command"]) for j in result["jobs"]] == [
        ("1", "stopped", "python3 -m http.server 8000"),
        ("2", "run_ended", "python3 -m http.server 8001"),
    ]
    assert result["jobs"][1]["ports"] == [8001]
    wait_gone(result["session_id"])


def test_a_hostile_models_jobs_are_stopped_as_any_command_would_be(
    docker_ready: None, repo: Path
) -> None:
    """It tries the host's network from a job (a server listening on the host's 127.0.0.1,
    which from inside is the sandbox's own), escapes a job's session with setsid, and fills
    the disk from a job while it waits: the connection fails and the host sees none, the
    escapee is killed at the next command's end, the filler at the disk limit."""
    paths.user_config_file().parent.mkdir(parents=True, exist_ok=True)
    paths.user_config_file().write_text('[sandbox]\ndisk_limit = "200m"\n')
    host = socket.socket()
    host.bind(("127.0.0.1", 0))
    host.listen()
    host.setblocking(False)
    port = host.getsockname()[1]
    network = (
        'python3 -c "import socket\n'
        f"try: socket.create_connection(('127.0.0.1', {port}), timeout=3); print('reached')\n"
        "except OSError as e: print('no network:', e)\"; ls /sys/class/net"
    )
    escape = "(setsid bash -c 'exec -a kiln-escapee sleep 300' &); exec sleep 300"
    filler = "i=0; while :; do i=$((i+1)); head -c 10000000 /dev/zero > f$i; sleep 0.05; done"
    # The model thinks for 8 s before it reads the filler's output: no command runs then.
    thinking = {**read_job("3"), "fault": "slow_first_token", "delay_s": 8.0}
    events, code = kiln_run(
        repo,
        [
            job(network),
            job(escape),
            run("true"),
            run(f"{COUNT} | grep -c kiln-escape[e] || true"),
            job(filler),
            thinking,
            run("rm -f f*"),
            FIX,
            FINISH,
        ],
    )
    result = events[-1]
    assert code == 0 and result["status"] == "done", result
    net, _escape, ended, left, _filler, filled, removed = outputs_of(events, "run")
    assert "no network:" in net and "reached" not in net and net.splitlines()[-1] == "lo"
    with pytest.raises(BlockingIOError):
        host.accept()  # nothing came through to the host
    host.close()
    assert "kiln killed 1 process" in ended
    assert left.startswith("0\n")
    assert "ended (disk_limit" in filled
    assert "past its disk limit of 200m" in removed and "kiln stopped jobs 2, 3;" in removed
    # Which job wrote cannot be told apart: past the limit, every running job stops.
    ends = {j["job_id"]: j["ended"] for j in result["jobs"]}
    assert ends == {"1": "exited", "2": "disk_limit", "3": "disk_limit"}
    wait_gone(result["session_id"])


def test_after_kill_9_of_kiln_prune_leaves_nothing(docker_ready: None, repo: Path) -> None:
    # kiln waits for this reply when it is killed
    waiting = {**FINISH, "fault": "slow_first_token", "delay_s": 120.0}
    with ScriptedServer([job("python3 -m http.server 8000"), waiting]) as server:
        kiln = subprocess.Popen(
            [KILN, "run", "fix add", "--repo", str(repo), "--approval", "full-auto",
             "--output-format", "stream-json", "--base-url", server.base_url, "--model", "m"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )  # fmt: skip
        try:
            assert server.wait_until(lambda s: len(s.chat_requests) >= 2, timeout=120)
            client = docker.from_env()
            labelled = {"label": f"kiln.pid={kiln.pid}"}
            (container,) = client.containers.list(filters=labelled)
            assert container.labels["kiln.sandbox"] == "1"
            state = Path(container.labels["kiln.state"])
            assert state.is_dir()
            names = " ".join(" ".join(row) for row in container.top()["Processes"])
            assert "http.server" in names  # the job runs in it
            os.kill(kiln.pid, signal.SIGKILL)
            kiln.wait(timeout=30)
        finally:
            kiln.kill()
            assert kiln.stdout is not None
            kiln.stdout.close()
    pruned = subprocess.run([KILN, "sandbox", "prune"], capture_output=True, text=True, timeout=120)
    assert pruned.returncode == 0, pruned.stderr
    assert client.containers.list(all=True, filters=labelled) == []
    assert client.volumes.list(filters=labelled) == []
    assert not state.exists()


def test_acp_shows_a_job_as_a_tool_call_of_its_own() -> None:
    from tests.conftest import import_or_skip_locally

    import_or_skip_locally("acp", "the `protocols` extra")
    from agent.acp.updates import Translator
    from agent.events import JobEnd, JobStarted, JobStopped

    translator = Translator("/repo")
    (started,) = translator.updates(JobStarted("1", "python3 -m http.server 8000"))
    (ended,) = translator.updates(
        JobStopped("1", "python3 -m http.server 8000", JobEnd.RUN_ENDED, 143, 4.2, (8000,), "GET /")
    )
    assert started.tool_call_id == "job-1" and started.kind == "execute"
    assert started.status == "in_progress" and started.title == "job 1: python3 -m http.server 8000"
    assert ended.tool_call_id == "job-1" and ended.status == "completed"
    assert ended.content[0].content.text == (
        "job 1 stopped at the end of the run after 4s (exit 143): python3 -m http.server 8000\nGET /"
    )
