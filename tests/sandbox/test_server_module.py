"""The command server imported from its own folder, mounted read-only (sandbox/server_module.py):
made once, its bytecode what Python loads, never writable from inside, and the source
handed over as before when the folder cannot be made."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from sandbox import container_spec, workspace
from sandbox.config import SandboxConfig
from sandbox.docker_backend import DockerSandbox
from sandbox.server_module import BOOT, MOUNTED_AT, SOURCE, server_folder
from tests.sandbox.conftest import PROCESS_LINES, tree_hash

MakeSandbox = Callable[..., DockerSandbox]


def test_the_folder_is_made_once_and_python_loads_its_bytecode(tmp_path: Path) -> None:
    folder = server_folder(tmp_path)
    assert folder is not None and folder.parent == tmp_path
    assert (folder / "exec_server.py").read_bytes() == SOURCE.read_bytes()
    made = tree_hash(folder)
    assert server_folder(tmp_path) == folder and tree_hash(folder) == made
    assert [p.name for p in tmp_path.iterdir()] == [folder.name]  # nothing half made left
    modes = {p.name: p.stat().st_mode & 0o777 for p in (folder, *folder.rglob("*"))}
    assert set(modes.values()) <= {0o755, 0o644}, modes
    # Imported (not run): the module serves only when main() is called.
    imports = f"import sys; sys.path.insert(0, {str(folder)!r}); import exec_server"
    loaded = subprocess.run(
        [sys.executable, "-v", "-I", "-S", "-c", imports], capture_output=True, text=True
    )
    assert loaded.returncode == 0, loaded.stderr[-2000:]
    cached = folder / "__pycache__" / f"exec_server.{sys.implementation.cache_tag}.pyc"
    assert f"code object from '{cached}'" in loaded.stderr


def test_without_its_folder_the_server_is_handed_over_as_its_source(tmp_path: Path) -> None:
    (tmp_path / "cache").write_text("a file where the folder would go\n")
    assert server_folder(tmp_path / "cache") is None

    def spec(folder: Path | None) -> dict[str, object]:
        repo = tmp_path / "repo"
        repo.mkdir(exist_ok=True)
        layout = workspace.Layout(tmp_path / "state")
        layout.root.mkdir(exist_ok=True)
        return container_spec.container_spec(
            image="i", repo=repo, layout=layout, config=SandboxConfig(), workspace_mount={},
            env={}, labels={}, with_server=True, server_folder=folder,
        )  # fmt: skip

    def mounts(made: dict[str, object]) -> dict[str, object]:
        host = made["HostConfig"]
        assert isinstance(host, dict)
        return {m["Target"]: m for m in host["Mounts"] if m}

    handed = spec(None)
    assert handed["Cmd"][-1] == SOURCE.read_text()  # type: ignore[index]
    assert MOUNTED_AT not in mounts(handed)
    imported = spec(tmp_path / "server")
    assert imported["Cmd"][-1] == BOOT  # type: ignore[index]
    assert mounts(imported)[MOUNTED_AT] == {
        "Target": MOUNTED_AT, "Source": str(tmp_path / "server"), "Type": "bind", "ReadOnly": True,
    }  # fmt: skip


@pytest.mark.docker
async def test_the_server_runs_from_its_folder_which_no_command_can_change(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    sandbox = make_sandbox(repo)
    await sandbox.start()
    folder = server_folder()
    assert folder is not None
    before = tree_hash(folder)
    lines = (await sandbox.exec(PROCESS_LINES)).output.splitlines()
    assert [line for line in lines if "import exec_server" in line and line.startswith("python3")]
    assert not [line for line in lines if "class Server" in line]  # no source handed over
    tries = (
        f"echo planted > {MOUNTED_AT}/exec_server.py",
        f"touch {MOUNTED_AT}/__pycache__/sitecustomize.py",
        f"rm -rf {MOUNTED_AT}/__pycache__",
        f"chmod 777 {MOUNTED_AT}",
    )
    for command in tries:
        tried = await sandbox.exec(command)
        assert tried.exit_code != 0 and "Read-only file system" in tried.output, command
    assert tree_hash(folder) == before
    # What the server runs is unchanged: a command after the tries still works.
    assert (await sandbox.exec("echo still")).output == "still\n"
