"""Attached processes (a language server's way in): started by the command server, or
with a `docker exec` of their own where there is none; both ways talk the same."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from sandbox.attached import AttachedProcess
from sandbox.channel_attached import ChannelAttached
from sandbox.docker_attached import DockerAttached
from sandbox.docker_backend import DockerSandbox
from tests.sandbox.conftest import until
from tests.sandbox.test_exec_server import KILL_SERVER, sleeping

MakeSandbox = Callable[..., DockerSandbox]

# Says the length of each line it reads (and the line's start on stderr); "bye" at the end
# of its input.
ECHO = (
    "import sys\n"
    "for line in sys.stdin:\n"
    "    print(len(line.rstrip()), flush=True)\n"
    "    print('err:' + line[:8], file=sys.stderr, flush=True)\n"
    "print('bye', flush=True)\n"
)


async def everything(process: AttachedProcess) -> bytes:
    """What it writes on stdout until it ends."""
    got = b""
    while piece := await asyncio.wait_for(process.receive(), 20):
        got += piece
    return got


async def lines(process: AttachedProcess, count: int) -> list[bytes]:
    got = b""
    while got.count(b"\n") < count:
        piece = await asyncio.wait_for(process.receive(), 20)
        assert piece, f"it ended after {got!r}"
        got += piece
    return got.splitlines()


@pytest.mark.docker
async def test_the_server_starts_it_and_it_talks_both_ways_until_its_input_ends(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    sandbox = make_sandbox(repo)
    await sandbox.start()
    process = await sandbox.attach(["python3", "-c", ECHO], cwd="/workspace")
    assert isinstance(process, ChannelAttached)
    big = b"x" * 300_000  # past a pipe's buffer and the size sent from a thread
    await process.send(b"hello\n")
    await process.send(big + b"\n" + b"after\n")
    assert await lines(process, 3) == [b"5", b"300000", b"5"]
    assert process.pid is not None and not process.missing
    # A command and the sweep of what commands leave running: the process is no stray.
    assert (await sandbox.exec("sleep 0.2; echo ran")).output == "ran\n"
    await process.send(b"still\n")
    assert await lines(process, 1) == [b"5"]
    await process.close()
    assert await everything(process) == b"bye\n"
    assert "err:hello" in process.stderr_tail and "err:still" in process.stderr_tail
    with pytest.raises(ConnectionError):
        await process.send(b"late\n")


@pytest.mark.docker
@pytest.mark.parametrize("way", ["server", "docker exec"])
async def test_it_yields_the_cpus_to_the_commands_the_run_waits_for(
    repo: Path, make_sandbox: MakeSandbox, way: str
) -> None:
    sandbox = make_sandbox(repo)
    sandbox.command_server = way == "server"
    await sandbox.start()
    niceness = "import os; print(os.nice(0), flush=True)"
    process = await sandbox.attach(["python3", "-c", niceness], cwd="/workspace")
    assert isinstance(process, ChannelAttached if way == "server" else DockerAttached)
    command = await sandbox.exec(f"python3 -c '{niceness}'")
    assert (await everything(process), command.output) == (b"19\n", "0\n")


@pytest.mark.docker
async def test_a_missing_program_is_told_apart_from_a_crash(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    sandbox = make_sandbox(repo)
    await sandbox.start()
    missing = await sandbox.attach(["kiln-no-such-program"], cwd="/workspace")
    assert await everything(missing) == b"" and missing.missing
    crashed = await sandbox.attach(["sh", "-c", "echo broken >&2; exit 3"], cwd="/workspace")
    assert await everything(crashed) == b"" and not crashed.missing
    assert crashed.stderr_tail.strip() == "broken"


@pytest.mark.docker
async def test_a_server_killed_ends_what_it_started_and_the_next_start_has_a_new_one(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    sandbox = make_sandbox(repo)
    await sandbox.start()
    process = await sandbox.attach(["cat"], cwd="/workspace")
    await sandbox.exec(KILL_SERVER, timeout=20)
    assert await everything(process) == b""
    assert "command server went away" in process.stderr_tail
    again = await sandbox.attach(["cat"], cwd="/workspace")
    assert isinstance(again, ChannelAttached)
    await again.send(b"back\n")
    assert await lines(again, 1) == [b"back"]
    assert sandbox.recoveries == 0  # the same container, a new server


@pytest.mark.docker
async def test_without_the_server_a_docker_exec_of_its_own_talks_the_same(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    sandbox = make_sandbox(repo, "docker-plain")
    await sandbox.start()
    process = await sandbox.attach(["python3", "-c", ECHO], cwd="/workspace")
    assert isinstance(process, DockerAttached)
    await process.send(b"hello\n")
    assert await lines(process, 1) == [b"5"]
    # Its stderr comes on a stream of its own: maybe a little later.
    await until(lambda: "err:hello" in process.stderr_tail, 5)
    await process.close()  # its stream is let go of at once: nothing more comes
    assert await everything(process) == b""


@pytest.mark.docker
async def test_a_kill_ends_it_and_what_it_started_at_once(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    sandbox = make_sandbox(repo)
    await sandbox.start()
    process = await sandbox.attach(["sh", "-c", "sleep 307 & sleep 308"], cwd="/workspace")
    await until(lambda: sleeping(sandbox, 2), 5)
    await process.kill()  # neither reads its input: only a kill ends them
    assert await everything(process) == b""
    await until(lambda: sleeping(sandbox, 0), 5)
