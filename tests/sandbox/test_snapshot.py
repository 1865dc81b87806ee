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
