"""Must hold: a command's output cut to head and tail says where the whole of it is, and
that place is readable (not writable) from inside the sandbox, so the model can page it."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from sandbox.common import WorkspaceSandbox
from tests.sandbox.conftest import backend_params

MakeSandbox = Callable[..., WorkspaceSandbox]


@pytest.mark.parametrize("backend", backend_params())
async def test_a_cut_output_can_be_paged_inside(
    repo: Path, make_sandbox: MakeSandbox, backend: str
) -> None:
    sandbox = make_sandbox(repo, backend)
    await sandbox.start()
    result = await sandbox.exec("seq 1 100000")
    assert result.truncated
    found = re.search(r"full output in (/kiln/outputs/\S+)", result.output)
    assert found, result.output[-300:]
    paged = await sandbox.exec(f"sed -n '50000p' {found[1]}; wc -l < {found[1]}")
    assert paged.output.split() == ["50000", "100000"]
    tamper = await sandbox.exec(f"echo x > {found[1]}")
    assert not tamper.ok  # read-only: what kiln recorded stays as it was
