"""Must hold: a service (a job) outlives the command that started it, inside the sandbox and
its limits. A server started as a job answers a later command on 127.0.0.1 and lists its
port; its log keeps only its last part however much it writes; the sweep keeps what a job
starts in its own session and kills what leaves it; a job cannot reach the host's
network, and one that fills the disk is stopped by the disk limit; all stop with the
sandbox."""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path

import docker
import pytest

from sandbox.base import SandboxConfig, SandboxError
from sandbox.bwrap_backend import BwrapSandbox
from sandbox.common import WorkspaceSandbox
from sandbox.docker_backend import DockerSandbox
from sandbox.quota import scan
from sandbox.services import DISK, EXITED, LOG_KEEP, STOPPED, Service
from tests.sandbox.conftest import PROCESS_LINES, until

MakeSandbox = Callable[..., WorkspaceSandbox]
MB = 1 << 20
FETCH = (
    'python3 -c "import urllib.request as u; '
    "print(u.urlopen('http://127.0.0.1:8000/README.md', timeout=5).read().decode())\""
)


def count(marker: str) -> str:
    """A command printing how many processes carry `marker` in their command line."""
    return f"{PROCESS_LINES} | grep -v grep | grep -c {marker} || true"


def running_names(container: docker.models.containers.Container) -> set[str]:
    """The first word of each process's command line, asked of the host (`top`): looking
    runs nothing inside the container."""
    return {row[-1].split()[0] for row in container.top()["Processes"] or []}


async def listening(sandbox: WorkspaceSandbox, service: Service, port: int) -> None:
    async def up() -> bool:
        await sandbox.read_service(service.id, new=False, most=0)
        return port in service.ports

    await until(up)


@pytest.mark.docker
async def test_a_server_job_answers_a_later_command_and_stops(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    sandbox = make_sandbox(repo)
    await sandbox.start()
    ended: list[Service] = []
    sandbox.on_service_end(ended.append)

    job = await sandbox.start_service("python3 -m http.server 8000")
    assert job.id == "1" and job.running and sandbox.services() == [job]
    await listening(sandbox, job, 8000)

    fetched = await sandbox.exec(FETCH)
    assert fetched.ok, fetched.output
    assert "edited but not committed" in fetched.output
    assert not fetched.notes  # the job is no stray: nothing was killed
    _, log = await sandbox.read_service(job.id)
    assert '"GET /README.md HTTP/1.1" 200' in log.text and log.start == 0
    _, again = await sandbox.read_service(job.id)
    assert again.text == ""  # read already

    await sandbox.stop_service(job.id, STOPPED)
    assert ended == [job] and job.ended_by == STOPPED and not job.running
    gone = await sandbox.exec(count("http.server"))
    assert gone.output.strip() == "0"


@pytest.mark.docker
async def test_a_job_writing_a_gigabyte_keeps_only_its_last_part(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    sandbox = make_sandbox(repo)
    await sandbox.start()
    assert sandbox.layout is not None
    job = await sandbox.start_service("head -c 1073741824 /dev/zero | tr '\\0' x; echo; echo done")
    await until(lambda: not job.running, 300)
    assert job.ended_by == EXITED and job.exit_code == 0
    assert job.total == (1 << 30) + len("\ndone\n")
    kept = sum(p.stat().st_size for p in sandbox.layout.services.iterdir())
    assert kept <= LOG_KEEP
    _, last = await sandbox.read_service(job.id, new=False, most=64)
    assert last.text.endswith("xxx\ndone\n")
    _, new = await sandbox.read_service(job.id)
    assert new.skipped > (1 << 30) - LOG_KEEP  # what is gone is counted, not shown
    print(f"1 GiB written by a job: its log holds {kept} bytes ({kept / MB:.1f} MB)")


@pytest.mark.docker
async def test_the_sweep_keeps_a_jobs_own_processes_and_kills_what_leaves_it(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    """The rule: what a job starts in its own session is the job's, even once its parent is
    gone (a double fork without setsid); what leaves the session (setsid) is a stray, as
    from any command; all of it goes when the job ends."""
    sandbox = make_sandbox(repo)
    assert isinstance(sandbox, DockerSandbox)
    await sandbox.start()
    job = await sandbox.start_service(
        "(exec -a kiln-own sleep 300 &); (setsid bash -c 'exec -a kiln-away sleep 301' &); "
        "exec sleep 302"
    )
    container = docker.from_env().containers.get(sandbox.container_id)
    await until(lambda: {"kiln-own", "kiln-away"} <= running_names(container), 5)
    ended = await sandbox.exec("true")  # a command's end sweeps
    assert any("kiln killed 1 process" in note for note in ended.notes), ended.notes
    left = await sandbox.exec(f"{count('kiln-own')}; {count('kiln-away')}")
    assert left.output.split() == ["1", "0"], left.output
    await sandbox.stop_service(job.id, STOPPED)
    after = await sandbox.exec(count("kiln-own"))
    assert after.output.strip() == "0"


@pytest.mark.docker
async def test_a_commands_own_escapee_lives_until_the_command_ends_beside_a_job(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    """The sweep beside a job waits for a running command: what the command started with
    setsid is the command's until it ends (a server and what uses it in one command)."""
    sandbox = make_sandbox(repo)
    await sandbox.start()
    await sandbox.start_service("exec sleep 300")
    within = await sandbox.exec(
        f"(setsid bash -c 'exec -a kiln-cmd-own sleep 60' &); sleep 5; {count('kiln-cmd-ow[n]')}"
    )
    assert within.output.startswith("1\n"), within.output  # alive after two sweeps' time
    assert any("kiln killed 1 process" in note for note in within.notes)  # then swept
    after = await sandbox.exec(count("kiln-cmd-ow[n]"))
    assert after.output.strip() == "0"


@pytest.mark.docker
async def test_a_job_cannot_reach_the_hosts_network(repo: Path, make_sandbox: MakeSandbox) -> None:
    """A server listening on the host's loopback: from inside, 127.0.0.1 is the sandbox's
    own, and there is no other interface, so the job's connection fails and the host's
    server never sees one."""
    host = socket.socket()
    host.bind(("127.0.0.1", 0))
    host.listen()
    host.setblocking(False)
    port = host.getsockname()[1]
    sandbox = make_sandbox(repo)
    await sandbox.start()
    job = await sandbox.start_service(
        'python3 -c "import socket\n'
        f"try: socket.create_connection(('127.0.0.1', {port}), timeout=3); print('reached')\n"
        "except OSError as e: print('failed', e)\n\"; ls /sys/class/net"
    )
    await until(lambda: not job.running)
    _, log = await sandbox.read_service(job.id)
    assert log.text.startswith("failed") and log.text.split()[-1] == "lo", log.text
    with pytest.raises(BlockingIOError):
        host.accept()
    host.close()


@pytest.mark.docker
async def test_a_job_filling_the_disk_is_stopped_by_the_disk_limit(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    sandbox = make_sandbox(repo, disk_limit="200m")
    await sandbox.start()
    assert sandbox.layout is not None
    job = await sandbox.start_service(
        "i=0; while :; do i=$((i+1)); head -c 10000000 /dev/zero > f$i; sleep 0.05; done"
    )
    await until(lambda: not job.running, 120)
    assert job.ended_by == DISK
    stopped_at = scan(sandbox.layout.root).used
    assert stopped_at < 600 * MB
    told = await sandbox.exec("rm -f f*; echo next")
    assert told.ok and "past its disk limit of 200m" in told.notes[0]
    assert "kiln stopped job 1;" in told.notes[0]
    print(f"a job filling the disk stopped at {stopped_at / MB:.0f} MB under a 200m limit")


@pytest.mark.docker
async def test_a_job_runs_within_the_sandboxs_memory_limit(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    sandbox = make_sandbox(repo, memory="256m")
    await sandbox.start()
    job = await sandbox.start_service("python3 -c 'b = bytearray(600 << 20); print(len(b))'")
    await until(lambda: not job.running)
    assert job.ended_by == EXITED and job.exit_code == 137  # the kernel's OOM kill
    assert job.last_output == ""  # it never got to print


@pytest.mark.docker
async def test_jobs_stop_with_the_sandbox(repo: Path, make_sandbox: MakeSandbox) -> None:
    sandbox = make_sandbox(repo)
    await sandbox.start()
    job = await sandbox.start_service("exec sleep 600")
    assert job.running
    await sandbox.close()
    await until(lambda: not job.running)


@pytest.mark.docker
async def test_without_the_command_server_a_job_is_refused_in_one_sentence(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    """Plain `docker exec` per command (an image without python3): nothing would keep a
    job's log bounded or spare it from the sweep, so none starts."""
    sandbox = make_sandbox(repo, "docker-plain")
    await sandbox.start()
    with pytest.raises(SandboxError, match=r"^Jobs need the Docker sandbox with its command"):
        await sandbox.start_service("sleep 1")
    assert sandbox.services() == []


async def test_bubblewrap_refuses_a_job_in_one_sentence(repo: Path) -> None:
    """Under bubblewrap nothing holds a process to memory or CPU limits once its command
    ended (no cgroup), so a job is refused, saying what to do instead."""
    sandbox = BwrapSandbox(repo, SandboxConfig(backend="bwrap"))
    with pytest.raises(SandboxError, match=r"^Jobs need the Docker sandbox"):
        await sandbox.start_service("sleep 1")
    assert sandbox.services() == []
