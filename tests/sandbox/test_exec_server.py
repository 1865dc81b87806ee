"""The in-container command server: what it must keep from plain `docker exec`, and the
fallback to plain exec where it cannot run."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from sandbox.base import SandboxError
from sandbox.docker_backend import DockerSandbox
from sandbox.exec_channel import Ended, ExecChannel
from tests.sandbox.conftest import PROCESS_LINES, until

MakeSandbox = Callable[..., DockerSandbox]

# Finds the server (a python3 importing it from its mounted folder, or handed its source,
# which holds the handshake text); the patterns are split so the command's own `bash -c`
# line does not match itself.
KILL_SERVER = (
    "for p in /proc/[0-9]*; do grep -qx 'python3*' $p/comm 2>/dev/null && "
    'grep -q -e "import exec""_server" -e "kiln-exec ""1" $p/cmdline 2>/dev/null && '
    "kill -9 ${p#/proc/}; done; echo done"
)


async def sleeps_left(sandbox: DockerSandbox) -> int:
    """`sleep 30N` processes still running (the test's own; the pattern is split so the
    counting command does not count itself)."""
    count = await sandbox.exec(f"{PROCESS_LINES} | grep -c '^sleep 3''0[0-9] ' || true")
    return int(count.output.strip())


async def sleeping(sandbox: DockerSandbox, count: int) -> bool:
    return await sleeps_left(sandbox) == count


@pytest.mark.docker
async def test_commands_run_through_the_server(repo: Path, make_sandbox: MakeSandbox) -> None:
    sandbox = make_sandbox(repo)
    await sandbox.start()
    assert sandbox.command_server
    result = await sandbox.exec("echo out; echo err >&2; exit 3")
    assert result.exit_code == 3 and result.output == "out\nerr\n"
    data = bytes(range(256)) * 5000  # over a megabyte, every byte value
    await sandbox.write_file("deep/new/blob.bin", data)
    assert await sandbox.read_file("deep/new/blob.bin") == data
    await sandbox.exec("chmod +x run.sh")
    await sandbox.write_file("run.sh", b"#!/bin/sh\necho changed\n")
    assert (await sandbox.exec("./run.sh")).output == "changed\n"  # mode kept


@pytest.mark.docker
async def test_cancelling_a_command_kills_its_whole_tree(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    sandbox = make_sandbox(repo)
    await sandbox.start()
    task = asyncio.create_task(sandbox.exec("sleep 300 & sleep 301; echo never > never.txt"))
    await asyncio.sleep(1.0)
    assert await sleeps_left(sandbox) == 2
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    await until(lambda: sleeping(sandbox, 0), 5)
    assert "never.txt" not in (await sandbox.exec("ls")).output


@pytest.mark.docker
async def test_a_command_that_kills_the_server_does_not_break_the_sandbox(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    sandbox = make_sandbox(repo)
    await sandbox.start()
    await sandbox.exec("echo kept > kept.txt")
    # The first server starts with the container, the next ones with an exec: both ways.
    for _ in range(2):
        killer = await sandbox.exec(KILL_SERVER, timeout=20)
        assert not killer.ok and not killer.timed_out  # its answer died with the server
        after = await sandbox.exec("cat kept.txt")
        assert after.ok and after.output == "kept\n"
    assert sandbox.recoveries == 0  # the same container each time, a new server
    assert "kept.txt" in await sandbox.changed_files()


@pytest.mark.docker
async def test_a_command_past_its_limit_gets_term_then_kill(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    # What `timeout -k 1` did inside the wrapper, the server does itself.
    sandbox = make_sandbox(repo)
    await sandbox.start()
    polite = await sandbox.exec("trap 'echo got TERM; exit 5' TERM; sleep 300 & wait", timeout=1)
    assert polite.timed_out and polite.exit_code == 124 and polite.output == "got TERM\n"
    stubborn = await sandbox.exec("trap '' TERM; sleep 301 & wait; echo never", timeout=1)
    assert stubborn.timed_out and stubborn.exit_code == 124 and "never" not in stubborn.output
    assert await sleeps_left(sandbox) == 0


@pytest.mark.docker
async def test_commands_get_signals_as_any_process_would(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    sandbox = make_sandbox(repo)
    await sandbox.start()
    result = await sandbox.exec("grep -E '^Sig(Ign|Blk)' /proc/self/status")
    assert result.output.split() == ["SigBlk:", "0000000000000000", "SigIgn:", "0000000000000000"]


async def ask(
    channel: ExecChannel, argv: list[str], cwd: str, command: bool, stdin: bytes | None = None
) -> tuple[Ended, str]:
    """One request straight to a server: how it ended, and its stdout and stderr."""
    output: list[bytes] = []
    ended = await channel.run(
        argv, output.append, output.append, cwd=cwd, env=None, stdin=stdin, deadline_s=30,
        limit=30 if command else None,
    )  # fmt: skip
    return ended, b"".join(output).decode()


@pytest.mark.docker
async def test_both_ways_of_starting_keep_directory_input_and_errors(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    # A command (one with a limit) is forked as Popen would; kiln's own scripts are spawned:
    # both run where they are asked to, take their input, and say what was missing.
    sandbox = make_sandbox(repo)
    await sandbox.start()
    assert sandbox.client is not None and sandbox.container_id is not None
    channel = await asyncio.to_thread(ExecChannel.open, sandbox.client, sandbox.container_id)
    assert channel is not None
    try:
        for command in (True, False):
            ended, said = await ask(channel, ["pwd"], "/workspace/src", command)
            assert (ended.code, said) == (0, "/workspace/src\n")
            ended, said = await ask(channel, ["pwd"], "/workspace/no-such-dir", command)
            assert ended.code == 127 and "/workspace/no-such-dir" in said, said
            ended, said = await ask(channel, ["no-such-program"], "/workspace", command)
            assert ended.code == 127 and "no-such-program" in said, said
            ended, said = await ask(channel, ["/workspace/README.md"], "/", command)
            assert ended.code == 126 and "Permission denied" in said, said  # not executable
            data = bytes(range(256)) * 4000  # more than a pipe holds: fed as it is read
            ended, said = await ask(channel, ["sh", "-c", "cat | wc -c"], "/", command, data)
            assert (ended.code, said) == (0, f"{len(data)}\n")
    finally:
        channel.close()


@pytest.mark.docker
async def test_files_the_server_reads_and_writes_itself_keep_the_sandbox_rules(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    # No `cat` runs for read_file and write_file: the server does it, as the sandbox user.
    sandbox = make_sandbox(repo, disk_limit="20m")
    await sandbox.start()
    # No capabilities: not even root reads a file with no read bits.
    await sandbox.exec("touch locked && chmod 000 locked && ln -s /etc/hosts hosts && mkdir dir")
    for unreadable in ("locked", "dir", "missing/file"):
        with pytest.raises(FileNotFoundError):
            await sandbox.read_file(unreadable)
    assert b"localhost" in await sandbox.read_file("hosts")  # a link is followed, as by cat
    # A read-only mount behind a link, a file taken for a folder, past the disk limit:
    for unwritable, data in (("hosts", b"x"), ("README.md/in", b"x"), ("big", b"0" * (30 << 20))):
        with pytest.raises(SandboxError):
            await sandbox.write_file(unwritable, data)
    await sandbox.write_file("new/deep/file.txt", b"ok")
    made = await sandbox.exec("stat -c %a new new/deep new/deep/file.txt")
    assert made.output.split() == ["755", "755", "644"]  # by the umask, as mkdir -p and cat


@pytest.mark.docker
async def test_image_without_python3_uses_plain_exec(
    repo: Path, make_sandbox: MakeSandbox, tmp_path: Path
) -> None:
    (repo / "Dockerfile.nopython").write_text(
        "FROM kiln-sandbox:latest\nRUN rm -f /usr/bin/python3* /usr/local/bin/python3*\n"
    )
    sandbox = make_sandbox(repo, dockerfile="Dockerfile.nopython")
    await sandbox.start()
    assert not sandbox.command_server
    result = await sandbox.exec("command -v python3 || echo none; echo err >&2; exit 4")
    assert result.exit_code == 4 and result.output == "none\nerr\n"
    await sandbox.write_file("src/app.py", b"changed\n")
    assert await sandbox.read_file("src/app.py") == b"changed\n"
    assert "src/app.py" in await sandbox.changed_files()
    slow = await sandbox.exec("sleep 100", timeout=1)
    assert slow.timed_out


@pytest.mark.docker
async def test_no_network_but_loopback_and_localhost_work(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    sandbox = make_sandbox(repo)
    await sandbox.start()
    probe = (
        "import socket\n"
        "server = socket.create_server(('127.0.0.1', 0))\n"
        "port = server.getsockname()[1]\n"
        "client = socket.create_connection(('localhost', port), timeout=2)\n"
        "print('loopback ok', socket.gethostbyname(socket.gethostname()))\n"
    )
    result = await sandbox.exec(f'python3 -c "{probe}"; ls /sys/class/net')
    assert result.output.split() == ["loopback", "ok", "127.0.1.1", "lo"]
