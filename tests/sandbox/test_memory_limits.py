"""Must hold: the memory limit is the sandbox's, and the model is told when it hits it.
/tmp and /var/tmp filled to the brim leave the other half of the memory to commands and
kiln's own bookkeeping; a command the OOM killer ends says so in one sentence."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from agent.tools.shell import describe_exec
from sandbox.common import WorkspaceSandbox

MakeSandbox = Callable[..., WorkspaceSandbox]
HOG = "python3 -c \"x = b'x' * (1024 ** 3)\""


@pytest.mark.docker
async def test_full_tmpfs_leaves_room_for_commands_and_bookkeeping(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    sandbox = make_sandbox(repo, memory="256m", disk_limit="1g")
    await sandbox.start()
    filled = await sandbox.exec(
        "cat /dev/zero > /tmp/fill; cat /dev/zero > /var/tmp/fill; df -k /tmp /var/tmp", timeout=60
    )
    assert not filled.oom_killed and not filled.notes
    sizes = [int(line.split()[1]) for line in filled.output.splitlines() if "tmpfs" in line]
    assert sizes == [64 * 1024, 64 * 1024]  # a quarter of 256m each

    # With both full: a command that needs memory runs, and so does kiln's bookkeeping.
    python = await sandbox.exec("python3 -c \"x = b'x' * (64 << 20); print(len(x))\"")
    assert python.ok and python.output == str(64 << 20) + "\n"
    await sandbox.write_file("src/app.py", b"def add(a, b):\n    return b + a\n")
    assert "return b + a" in await sandbox.diff()
    assert await sandbox.checkpoint("with full tmp")


@pytest.mark.docker
async def test_an_oom_kill_is_named_with_the_limit(repo: Path, make_sandbox: MakeSandbox) -> None:
    sandbox = make_sandbox(repo, memory="256m")
    await sandbox.start()

    hog = await sandbox.exec(HOG, timeout=60)
    assert hog.exit_code == 137 and hog.oom_killed and not hog.timed_out
    [note] = hog.notes
    assert note.startswith("The command ran out of memory: the sandbox may use 256m")
    assert "([sandbox] memory) and the kernel killed the command" in note
    assert f"[{note}]\n[exit code 137]" in describe_exec(hog)

    # A test runner's worker killed while the runner itself goes on is named too.
    inner = await sandbox.exec(f"{HOG}; echo exit $?", timeout=60)
    assert inner.ok and inner.output.endswith("exit 137\n")
    assert inner.oom_killed and "killed a process the command started" in inner.notes[0]

    fine = await sandbox.exec("python3 -c 'print(2 + 2)'")
    assert fine.ok and fine.output == "4\n" and not fine.oom_killed and not fine.notes
