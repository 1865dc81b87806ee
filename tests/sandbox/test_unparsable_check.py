"""kiln's syntax check of a diff's files (agent/vcs/unparsable.py), asked by the run's
outcome and again by its apply: one look at the sandbox per diff, a new one per change."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from agent.vcs.unparsable import broken_files, unparsable_flags
from sandbox.common import WorkspaceSandbox

MakeSandbox = Callable[..., WorkspaceSandbox]


@pytest.mark.docker
async def test_one_diff_is_read_from_the_sandbox_once(
    repo: Path, make_sandbox: MakeSandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    sandbox = make_sandbox(repo)
    await sandbox.start()
    read, reads = sandbox.read_file, list[str]()

    async def counted(path: str) -> bytes:
        reads.append(path)
        return await read(path)

    monkeypatch.setattr(sandbox, "read_file", counted)
    await sandbox.write_file("src/app.py", b"def add(a, b)\n    return a + b\n")
    broken = await sandbox.diff()
    assert await broken_files(repo, broken, sandbox) == ["src/app.py"]
    flagged = await unparsable_flags(repo, broken, sandbox)
    assert flagged and "src/app.py not parsing" in flagged[0]
    assert reads == ["src/app.py"]

    await sandbox.write_file("src/app.py", b"def add(a, b):\n    return b + a\n")
    mended = await sandbox.diff()
    assert mended != broken and await unparsable_flags(repo, mended, sandbox) == ()
    assert reads == ["src/app.py", "src/app.py"]
