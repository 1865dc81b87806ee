"""One sandbox's settings: its backend, image, limits and setup (`SandboxConfig`).

Apart from `base.py`'s protocol and results, which re-exports these: kiln's settings hold
a `SandboxConfig`, and they load before the TUI's first frame, which needs no sandbox.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_IMAGE = "kiln-sandbox:latest"


@dataclass(frozen=True)
class SandboxConfig:
    """Limits and choices for one sandbox; agent.settings.config fills it from settings."""

    backend: str = "docker"  # "docker" | "bwrap" | "auto"
    image: str = DEFAULT_IMAGE
    dockerfile: str | None = None  # a repository may name its own, relative to its root
    network: bool = False
    memory: str = "2g"
    cpus: float = 2.0
    pids_limit: int = 512
    disk_limit: str = "5g"  # what commands may write to the host's disk, all files together
    output_cap_bytes: int = 10 * 1024
    default_timeout_s: float = 120.0
    env: dict[str, str] = field(default_factory=dict)  # extra variables, nothing inherited
    # The setup phase (sandbox/setup.py): commands run once, cached as an image.
    setup: tuple[str, ...] = ()
    setup_auto: bool = True  # with no `setup`, propose it from the dependency files
    setup_network: bool = False  # only the person's own config may turn this on
    setup_timeout_s: float = 1800.0
    state_dir: Path | None = None  # where workspaces, outputs and checkpoints live
    # More labels on its container and volume (`kiln batch`: the batch and the task), beside
    # kiln's own, which `kiln sandbox prune` reads; not settable from files.
    labels: dict[str, str] = field(default_factory=dict)
