"""Must hold: timeouts kill the whole tree, limits contain bombs and hogs, huge output costs
kiln no memory, a container killed from outside is replaced, a dead engine is one sentence."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path

import docker
import pytest

from sandbox.base import SandboxConfig, SandboxGone
from sandbox.docker_backend import DockerSandbox
from sandbox.engine import EngineUnavailable
from sandbox.factory import create_sandbox
from tests.sandbox.conftest import PROCESS_LINES

MakeSandbox = Callable[..., DockerSandbox]


def rss_bytes() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


@pytest.mark.docker
async def test_timeout_kills_the_whole_process_tree(repo: Path, make_sandbox: MakeSandbox) -> None:
    sandbox = make_sandbox(repo)
    await sandbox.start()
    result = await sandbox.exec("(sleep 1000 &); sh -c 'sleep 1000' & sleep 1000", timeout=2)
    assert result.timed_out and not result.ok
    assert result.duration_s < 15  # about 2 s; a loose bound, the benchmark measures speed
    left = await sandbox.exec(f"{PROCESS_LINES} | grep -c '^sleep 1000 ' || true")
    assert left.output.strip() == "0"  # none of the command's sleeps is left


@pytest.mark.docker
async def test_fork_bomb_is_contained_by_the_pids_limit(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    sandbox = make_sandbox(repo, pids_limit=64)
    await sandbox.start()
    result = await sandbox.exec(":(){ :|:& };: ; sleep 2", timeout=20)
    assert not result.timed_out or result.duration_s < 30
    after = await sandbox.exec("echo alive")
    assert after.ok and after.output == "alive\n"


@pytest.mark.docker
async def test_memory_hog_is_reported_not_fatal(repo: Path, make_sandbox: MakeSandbox) -> None:
    sandbox = make_sandbox(repo, memory="256m")
    await sandbox.start()
    hog = await sandbox.exec("python3 -c \"x = b'x' * (1024 ** 3)\"", timeout=60)
    assert hog.oom_killed and hog.exit_code != 0 and not hog.timed_out
    fine = await sandbox.exec("python3 -c 'print(2 + 2)'")
    assert fine.ok and fine.output == "4\n" and not fine.oom_killed


@pytest.mark.docker
async def test_one_gigabyte_of_output_keeps_kiln_memory_flat(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    sandbox = make_sandbox(repo, output_cap_bytes=10 * 1024)
    await sandbox.start()
    await sandbox.exec("true")
    before = rss_bytes()
    result = await sandbox.exec(
        "head -c 1000000000 /dev/zero | tr '\\0' a; echo; echo END", timeout=300
    )
    growth = rss_bytes() - before
    assert growth < 50 * 1024 * 1024, f"kiln grew by {growth / 2**20:.1f} MB"
    assert result.ok and result.truncated
    assert result.total_bytes == 1_000_000_000 + len("\nEND\n")
    assert result.output.startswith("aaaa") and result.output.endswith("a\nEND\n")
    assert len(result.output.encode()) < 11 * 1024
    assert result.full_output_path is not None
    # The file for paging keeps the first 64 MB: printing forever must not fill the disk.
    full = Path(result.full_output_path)
    assert full.stat().st_size == 64 << 20
    assert f"its first {64 << 20} bytes in /kiln/outputs/{full.name}" in result.output
    full.unlink()


@pytest.mark.docker
async def test_container_killed_from_outside_is_replaced_from_last_checkpoint(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    sandbox = make_sandbox(repo)
    waits: list[None] = []
    sandbox.waiting = lambda: waits.append(None)
    await sandbox.start()
    await sandbox.exec("echo kept > kept.txt")
    await sandbox.checkpoint("after kept")
    await sandbox.exec("echo lost > lost.txt")
    client = docker.from_env()
    client.api.kill(sandbox.container_id)
    result = await sandbox.exec("ls *.txt")
    assert result.ok and result.output.split() == ["kept.txt", "notes.txt"]
    assert sandbox.recoveries == 1

    # Killed while a command runs: that command reports it, the next one works again.
    running = asyncio.create_task(sandbox.exec("sleep 30", timeout=60))
    await asyncio.sleep(1.0)
    client.api.remove_container(sandbox.container_id, force=True)
    with pytest.raises(SandboxGone):
        await running
    again = await sandbox.exec("cat kept.txt")
    assert again.output == "kept\n" and sandbox.recoveries == 2
    assert len(waits) == 1  # a recovery's new container is no start of the sandbox


async def test_engine_not_running_is_one_sentence(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DOCKER_HOST", f"unix://{tmp_path}/no-engine.sock")
    sandbox = create_sandbox(repo, SandboxConfig(state_dir=tmp_path / "state"))
    with pytest.raises(EngineUnavailable) as info:
        await sandbox.start()
    message = str(info.value)
    assert "not running" in message and "--backend bwrap" in message
    assert "\n" not in message and message.endswith(".") and "Traceback" not in message
    fallback = create_sandbox(repo, SandboxConfig(backend="auto", state_dir=tmp_path / "s2"))
    assert type(fallback).__name__ == ("BwrapSandbox" if os.path.exists("/usr/bin/bwrap") else "")
