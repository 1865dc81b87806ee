"""The first slice others build on: create, start, exec, close on a real git repository."""

from __future__ import annotations

from pathlib import Path

from sandbox.base import SandboxConfig
from sandbox.factory import create_sandbox
from tests.conftest import make_git_repo


async def test_start_and_exec_python(docker_ready: None, tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", {"a.py": "print('hi')\n"})
    sandbox = create_sandbox(repo, SandboxConfig(state_dir=tmp_path / "state"))
    await sandbox.start()
    try:
        result = await sandbox.exec("python3 -c 'print(1)'")
        assert result.exit_code == 0 and result.output == "1\n"
        ran = await sandbox.exec("python3 a.py")
        assert ran.output == "hi\n"
    finally:
        await sandbox.close()
