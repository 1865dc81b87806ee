"""Must hold: nothing a command starts outlives it. A `setsid` writer and a double-fork
daemon are killed when their command ends, and the command's output says so; a process
that escapes anyway (planted from outside, between commands) is stopped by the session's
disk watcher once the workspace grows past the limit, and the next command says so."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import docker
import pytest

from agent.tools.shell import describe_exec
from sandbox.common import WorkspaceSandbox
from sandbox.docker_backend import DockerSandbox
from sandbox.quota import scan
from tests.sandbox.conftest import PROCESS_LINES

MakeSandbox = Callable[..., WorkspaceSandbox]
MB = 1 << 20
# Each writes 10 MB every 0.1 s: far past the 200m limit within a minute, if left alone.
SETSID_WRITER = (
    "setsid sh -c 'i=0; while :; do i=$((i+1)); head -c 10000000 /dev/zero > w$i; "
    "sleep 0.1; done; : kiln-stray' >/dev/null 2>&1 </dev/null &"
)
DAEMON = (
    'python3 -c "import os, time\n'
    "if os.fork(): os._exit(0)\n"
    "os.setsid()\n"
    "if os.fork(): os._exit(0)\n"
    "for i in range(10000):\n"
    "    open(f'd{i}', 'wb').write(bytes(10000000)); time.sleep(0.1)\n"
    '" kiln-stray >/dev/null 2>&1 </dev/null'
)
STRAYS_LEFT = f"{PROCESS_LINES} | grep -v grep | grep -c kiln-stray || true"


@pytest.mark.docker
@pytest.mark.parametrize("plain", [False, True], ids=["server", "docker-plain"])
async def test_a_setsid_writer_and_a_daemon_die_with_their_command(
    repo: Path, make_sandbox: MakeSandbox, plain: bool
) -> None:
    sandbox = make_sandbox(repo, "docker-plain" if plain else "docker", disk_limit="200m")
    await sandbox.start()

    # Half a second: both writers run by then, and together they write ~170 MB a second,
    # so a slow exec (docker-plain's, under load) must not reach the 200m limit before the
    # command ends (a whole second did, once: 210 MB).
    started = await sandbox.exec(f"{SETSID_WRITER} {DAEMON}; sleep 0.5; echo started")
    assert started.ok and started.output == "started\n"
    assert any("kiln killed" in note and "setsid" in note for note in started.notes)
    assert "left running in the background" in describe_exec(started)

    left = await sandbox.exec(STRAYS_LEFT)
    assert left.output.strip() == "0" and not left.notes  # nothing more to kill
    growth = await sandbox.exec("du -sb . | cut -f1; sleep 1; du -sb . | cut -f1")
    first, second = growth.output.split()
    assert first == second  # nobody writes any more
    assert sandbox.layout is not None and scan(sandbox.layout.root).used < 200 * MB

    # The session goes on, and an ordinary command is told nothing.
    plain_run = await sandbox.exec("echo fine")
    assert plain_run.ok and plain_run.output == "fine\n" and not plain_run.notes


@pytest.mark.docker
async def test_a_writer_that_escaped_is_stopped_between_commands(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    sandbox = make_sandbox(repo, disk_limit="200m")
    assert isinstance(sandbox, DockerSandbox)
    await sandbox.start()
    assert sandbox.layout is not None
    # A writer no command started: put there from outside, as the sandbox's user.
    container = docker.from_env().containers.get(sandbox.container_id)
    user = container.attrs["Config"]["User"]
    container.exec_run(["sh", "-c", f"cd /workspace && {SETSID_WRITER}"], user=user, detach=True)
    for _ in range(240):  # until the writer is gone (or two minutes passed)
        await asyncio.sleep(0.5)
        if not _strays_running(container):
            break
    assert not _strays_running(container)
    stopped_at = scan(sandbox.layout.root).used

    told = await sandbox.exec("echo next")
    assert told.ok and told.output == "next\n"
    [note] = told.notes
    assert note.startswith("Between commands, processes left running in the background")
    assert "past its disk limit of 200m ([sandbox] disk_limit)" in note
    assert f"[{note}]" in describe_exec(told)
    assert stopped_at < 600 * MB  # found within a few of its 10 MB steps past the limit
    print(f"stopped between commands at {stopped_at / MB:.0f} MB under a 200m limit")


def _strays_running(container: docker.models.containers.Container) -> bool:
    # `top` asks the host, not the container: looking does not run anything inside.
    return any("kiln-stray" in " ".join(row) for row in container.top()["Processes"] or [])
