"""Must hold: a command cannot fill the host's disk. One file stops at `disk_limit`, many
files are stopped soon after, /tmp is bounded too, and the sandbox goes on working."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from agent.tools.shell import describe_exec
from sandbox.common import WorkspaceSandbox
from sandbox.output import OutputCapture
from sandbox.quota import scan
from tests.sandbox.conftest import backend_params

MakeSandbox = Callable[..., WorkspaceSandbox]
MB = 1 << 20


@pytest.mark.parametrize("backend", backend_params())
async def test_writing_forever_stops_at_the_disk_limit(
    repo: Path, make_sandbox: MakeSandbox, backend: str
) -> None:
    sandbox = make_sandbox(repo, backend, disk_limit="200m")
    await sandbox.start()
    await sandbox.write_file("src/app.py", b"def add(a, b):\n    return b + a\n")
    free_before = shutil.disk_usage(repo).free

    one_file = await sandbox.exec("yes > /workspace/big", timeout=60)
    assert not one_file.ok and not one_file.timed_out
    assert "disk_limit" in one_file.stopped_by
    size = await sandbox.exec("stat -c %s /workspace/big")
    assert int(size.output) <= 200 * MB
    # Too big for a diff: left out of it, and the model is told so.
    assert one_file.left_out == ("big",)
    assert "big: over 50 MB, so kiln leaves it out of the diff" in describe_exec(one_file)
    assert "big" not in await sandbox.changed_files()

    many_files = await sandbox.exec(
        "for i in $(seq 100); do head -c 20000000 /dev/zero > f$i; done", timeout=60
    )
    assert "disk_limit" in many_files.stopped_by and not many_files.timed_out
    written = await sandbox.exec("ls f* | wc -l")
    assert int(written.output) < 100  # stopped long before the loop's end

    in_tmp = await sandbox.exec(
        "for i in $(seq 30); do head -c 20000000 /dev/zero > /tmp/t$i; done"
    )
    assert not in_tmp.ok  # /tmp is as big as the limit (bubblewrap's tmpfs and Docker's)

    assert free_before - shutil.disk_usage(repo).free < 1024 * MB
    assert sandbox.layout is not None and scan(sandbox.layout.root).used < 700 * MB

    # The session goes on: deleting works, and the earlier edit is still the diff.
    cleaned = await sandbox.exec("rm -f /workspace/big /workspace/f* && echo ok")
    assert cleaned.ok and cleaned.output == "ok\n"
    assert "return b + a" in await sandbox.diff()


def test_the_output_file_keeps_only_its_cap(tmp_path: Path) -> None:
    capture = OutputCapture(100, tmp_path / "out.log", file_cap=1000)
    for _ in range(50):
        capture.feed(b"y\n" * 100)
    text, truncated, path = capture.finish()
    assert truncated and path is not None
    assert Path(path).stat().st_size == 1000
    assert "its first 1000 bytes" in text and capture.total == 10_000
