"""Fixtures for sandbox tests: a repository in a realistic state, and tree hashing."""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import os
import shutil
import stat
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from sandbox.base import SandboxConfig
from sandbox.common import WorkspaceSandbox
from sandbox.factory import create_sandbox
from tests.conftest import make_git_repo, require_docker

# Every process's command line, one per line, for a grep to count: stderr is redirected
# before the input, since a process that ends between the glob and the read makes the
# shell itself complain, and that must not reach the count.
PROCESS_LINES = "for p in /proc/[0-9]*; do tr '\\0' ' ' 2>/dev/null < $p/cmdline; echo; done"


async def until(check: Callable[[], object], seconds: float = 30) -> None:
    """Wait until `check()` holds (awaited when it answers with an awaitable), asking every
    0.1 s; AssertionError after `seconds`."""
    for _ in range(int(seconds / 0.1)):
        said = check()
        if await said if inspect.isawaitable(said) else said:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"still not so after {seconds}s")


def tree_hash(root: Path) -> str:
    """Hash of every path, mode, owner, symlink target and byte under root, .git included."""
    digest = hashlib.sha256()
    for dirpath, dirnames, filenames in sorted(os.walk(root)):
        dirnames.sort()
        for name in sorted([*dirnames, *filenames]):
            path = Path(dirpath) / name
            st = path.lstat()
            digest.update(f"{path.relative_to(root)}\0{st.st_mode}\0{st.st_uid}\0".encode())
            if stat.S_ISLNK(st.st_mode):
                digest.update(os.readlink(path).encode())
            elif stat.S_ISREG(st.st_mode):
                digest.update(path.read_bytes())
    return digest.hexdigest()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """Committed files, an uncommitted edit, an untracked file and an ignored secret."""
    path = make_git_repo(
        tmp_path / "repo",
        {
            "src/app.py": "def add(a, b):\n    return a + b\n",
            "tests/test_app.py": "from src.app import add\n\ndef test_add():\n    assert add(1, 2) == 3\n",
            "README.md": "# demo\n",
            "data.bin": bytes(range(256)) * 4,
            "run.sh": "#!/bin/sh\necho run\n",
            ".gitignore": ".env\nbuild/\n",
        },
    )
    (path / "README.md").write_text("# demo, edited but not committed\n")
    (path / "notes.txt").write_text("untracked\n")
    (path / ".env").write_text("OPENAI_API_KEY=sk-from-dotenv\n")
    (path / "build").mkdir()
    (path / "build" / "out.o").write_bytes(b"\x7fELF")
    # pytest's cache ignores itself with its own .gitignore: git lists the folder, then its files.
    (path / ".pytest_cache" / "v").mkdir(parents=True)
    (path / ".pytest_cache" / ".gitignore").write_text("*\n")
    (path / ".pytest_cache" / "v" / "lastfailed").write_text("{}\n")
    return path


def backend_params() -> list[object]:
    bwrap_missing = shutil.which("bwrap") is None
    return [
        pytest.param("docker", id="docker", marks=pytest.mark.docker),
        # Plain `docker exec` per command: what images without python3 get.
        pytest.param("docker-plain", id="docker-plain", marks=pytest.mark.docker),
        pytest.param(
            "bwrap",
            id="bwrap",
            marks=pytest.mark.skipif(bwrap_missing, reason="bubblewrap not installed"),
        ),
    ]


@pytest.fixture
async def make_sandbox(tmp_path: Path) -> AsyncIterator[Callable[..., WorkspaceSandbox]]:
    """make(repo, backend, **config) -> a not-yet-started sandbox, closed after the test."""
    made: list[WorkspaceSandbox] = []

    def make(repo: Path, backend: str = "docker", **config: object) -> WorkspaceSandbox:
        plain = backend == "docker-plain"
        backend = "docker" if plain else backend
        if backend == "docker":
            require_docker()
        state = tmp_path / f"state-{len(made)}"
        cfg = SandboxConfig(backend=backend, state_dir=state, **config)  # type: ignore[arg-type]
        sandbox = create_sandbox(repo, cfg)
        assert isinstance(sandbox, WorkspaceSandbox)
        if plain:
            sandbox.command_server = False  # type: ignore[attr-defined]
        made.append(sandbox)
        return sandbox

    yield make
    for sandbox in made:
        await sandbox.close()
