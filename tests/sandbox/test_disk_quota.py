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
from sandbox.quota import holds_big_file, scan
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


def test_a_look_for_big_files_says_when_there_are_too_many_to_look_through(
    tmp_path: Path,
) -> None:
    (tmp_path / "deep" / "er").mkdir(parents=True)
    (tmp_path / "deep" / "er" / "small").write_bytes(b"x" * 10)
    assert holds_big_file(tmp_path, 100, most=10) is False
    with (tmp_path / "deep" / "er" / "big").open("wb") as big:
        big.truncate(101)  # sparse: its size, not its blocks, is what counts
    (tmp_path / "link").symlink_to(tmp_path / "deep" / "er" / "big")  # never followed
    assert holds_big_file(tmp_path, 100, most=10) is True
    assert holds_big_file(tmp_path, 101, most=10) is False
    for n in range(10):
        (tmp_path / f"f{n}").write_bytes(b"")
    assert holds_big_file(tmp_path, 101, most=10) is None


@pytest.mark.parametrize("backend", backend_params())
async def test_a_big_file_the_repository_holds_stays_out_of_every_diff(
    repo: Path, make_sandbox: MakeSandbox, backend: str
) -> None:
    with (repo / "data.raw").open("wb") as data:  # untracked, not ignored, over 50 MB
        data.truncate(60 * MB)
    sandbox = make_sandbox(repo, backend)
    await sandbox.start()
    await sandbox.write_file("src/app.py", b"def add(a, b):\n    return b + a\n")
    assert await sandbox.changed_files() == ["src/app.py"]
    assert "data.raw" not in await sandbox.diff()
    grown = await sandbox.exec("truncate -s 70M data.raw && echo ok")  # changed, still big
    assert grown.output == "ok\n"
    assert await sandbox.changed_files() == ["src/app.py"]
