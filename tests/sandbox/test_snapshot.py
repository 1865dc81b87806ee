"""diff, changed_files and checkpoint share one look at the workspace: never a stale one."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from sandbox.common import WorkspaceSandbox
from tests.sandbox.conftest import backend_params

MakeSandbox = Callable[..., WorkspaceSandbox]
pytestmark = pytest.mark.parametrize("backend", backend_params())


async def test_every_change_is_seen_even_while_a_command_runs(
    repo: Path, make_sandbox: MakeSandbox, backend: str
) -> None:
    sandbox = make_sandbox(repo, backend)
    await sandbox.start()
    assert await sandbox.diff() == "" and await sandbox.changed_files() == []
    await sandbox.write_file("a.txt", b"one\n")
    assert await sandbox.changed_files() == ["a.txt"]
    first = await sandbox.checkpoint("a")  # from the snapshot just taken
    await sandbox.exec("echo two > b.txt")
    assert await sandbox.changed_files() == ["a.txt", "b.txt"]

    # A command still running may write after the look: that look must not be reused.
    late = asyncio.create_task(sandbox.exec("sleep 0.5; echo late > late.txt; sleep 1.5"))
    await asyncio.sleep(0.2)
    assert "late.txt" not in await sandbox.changed_files()
    await asyncio.sleep(1.0)
    assert not late.done() and "late.txt" in await sandbox.changed_files()
    await late
    assert "+late" in await sandbox.diff()
    second = await sandbox.checkpoint("late")

    await sandbox.restore(first)
    assert await sandbox.changed_files() == ["a.txt"]
    await sandbox.restore(second)
    assert await sandbox.changed_files() == ["a.txt", "b.txt", "late.txt"]
    assert (await sandbox.exec("cat late.txt")).output == "late\n"


async def test_a_snapshot_taken_while_the_model_thinks_serves_the_next_diff(
    repo: Path, make_sandbox: MakeSandbox, backend: str
) -> None:
    """snapshot_soon() takes the diff in the background; a change made meanwhile is never
    lost, and the git state kiln writes next (checkpoint, restore) waits for it."""
    sandbox = make_sandbox(repo, backend)
    await sandbox.start()
    await sandbox.exec("echo one > a.txt")
    sandbox.snapshot_soon()
    assert sandbox._snapshotting is not None  # taken in the background
    assert "+one" in await sandbox.diff()
    sandbox.snapshot_soon()
    assert sandbox._snapshotting is None  # current already: nothing to take

    await sandbox.exec("echo two > b.txt")
    sandbox.snapshot_soon()
    both = await sandbox.checkpoint("both")  # kiln's index is written by one at a time
    await sandbox.exec("echo three > c.txt")
    sandbox.snapshot_soon()
    await sandbox.write_file("a.txt", b"changed\n")  # while the snapshot is being taken
    assert await sandbox.changed_files() == ["a.txt", "b.txt", "c.txt"]
    assert "+changed" in await sandbox.diff()

    await sandbox.exec("echo four > d.txt")
    sandbox.snapshot_soon()
    await sandbox.restore(both)
    assert await sandbox.changed_files() == ["a.txt", "b.txt"]

    running = asyncio.create_task(sandbox.exec("sleep 0.3; echo five > e.txt"))
    await asyncio.sleep(0.1)
    sandbox.snapshot_soon()
    assert sandbox._snapshotting is None  # a command runs: its files are still changing
    await running
    assert "e.txt" in await sandbox.changed_files()


async def test_callers_asking_at_once_share_the_index(
    repo: Path, make_sandbox: MakeSandbox, backend: str
) -> None:
    """Several callers at once (child agents started over one parent's workspace) each get
    the diff: the scripts that write kiln's git index take turns, never racing on its lock."""
    sandbox = make_sandbox(repo, backend)
    await sandbox.start()
    for round_ in range(3):
        await sandbox.exec(f"for i in $(seq 40); do echo {round_} > f$i.txt; done")
        asks = [sandbox.diff() for _ in range(6)] + [sandbox.checkpoint(f"c{round_}")]
        answers = await asyncio.gather(*asks)
        assert all(f"+{round_}" in diff for diff in answers[:6])
        assert answers[-1]
