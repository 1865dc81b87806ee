"""Choose a backend by name: "docker", "bwrap", or "auto" (Docker, else bubblewrap)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from sandbox.base import Sandbox, SandboxConfig, SandboxError

if TYPE_CHECKING:
    from sandbox.launch import EarlyLaunch


def create_sandbox(
    repo: Path,
    config: SandboxConfig,
    *,
    session_id: str | None = None,
    early: EarlyLaunch | None = None,
) -> Sandbox:
    """A sandbox over `repo`, not started yet: `await sandbox.start()` before using it.
    `early`: a Docker sandbox's container launch, begun already (sandbox/launch.py)."""
    backend = config.backend
    if backend == "auto":
        backend = _auto_backend()
    if backend == "docker":
        from sandbox.docker_backend import DockerSandbox

        return DockerSandbox(repo, config, session_id=session_id, early=early)
    if backend == "bwrap":
        from sandbox.bwrap_backend import BwrapSandbox

        return BwrapSandbox(repo, config, session_id=session_id)
    raise SandboxError(
        f"There is no sandbox backend {config.backend!r}; use docker, bwrap or auto."
    )


def _auto_backend() -> str:
    from sandbox.engine import EngineUnavailable, connect

    try:
        connect(timeout=5).close()
        return "docker"
    except EngineUnavailable as docker_error:
        if shutil.which("bwrap"):
            return "bwrap"
        raise SandboxError(
            f"{docker_error} (bubblewrap, the fallback, is not installed either: "
            "`apt-get install bubblewrap`)."
        ) from None
