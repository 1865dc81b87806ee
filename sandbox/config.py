"""One sandbox's settings: its backend, image, limits and setup (`SandboxConfig`).

Apart from `base.py`'s protocol and results, which re-exports these: kiln's settings hold
a `SandboxConfig`, and they load before the TUI's first frame, which needs no sandbox.
"""

from __future__ import annotations

from dataclasses import field
from pathlib import Path

from sandbox.frozen import frozen

DEFAULT_IMAGE = "kiln-sandbox:latest"


@frozen
class SandboxConfig:
    """`[sandbox]`: the backend, the image, the limits that protect your machine, and the
    setup phase; agent.settings.config fills it from the settings."""

    backend: str = field(
        default="docker",
        metadata={
            "doc": "docker, bwrap (bubblewrap, no memory, pids or CPU limits) or auto "
            "(bubblewrap when no Docker engine answers)."
        },
    )
    image: str = field(default=DEFAULT_IMAGE, metadata={"doc": "The sandbox's image."})
    dockerfile: str | None = field(
        default=None,
        metadata={
            "doc": "A Dockerfile, relative to the repository's root, built once and "
            "tagged by its content, used instead of `image`."
        },
    )
    network: bool = field(
        default=False, metadata={"doc": "Give the sandbox a network (it has none otherwise)."}
    )
    memory: str = field(default="2g", metadata={"doc": "The container's memory limit."})
    cpus: float = field(default=2.0, metadata={"doc": "CPUs the container may use."})
    pids_limit: int = field(
        default=512, metadata={"doc": "Processes the container may run at once."}
    )
    disk_limit: str = field(
        default="5g",
        metadata={
            "doc": "What commands may write to your disk, all files together; a "
            "command that writes past it is stopped."
        },
    )
    output_cap_bytes: int = field(
        default=10 * 1024,
        metadata={
            "doc": "Bytes of a command's output the model sees (head and tail); the "
            "whole output is kept in a file."
        },
    )
    default_timeout_s: float = field(
        default=120.0,
        metadata={"doc": "Seconds a command may run when it names no limit of its own."},
    )
    env: dict[str, str] = field(
        default_factory=dict,
        metadata={
            "doc": "Variables set in the sandbox; nothing is inherited from kiln's own environment."
        },
    )
    # The setup phase (sandbox/setup.py): commands run once, cached as an image.
    setup: tuple[str, ...] = field(
        default=(),
        metadata={
            "doc": "Commands run once, as root, before the first session; what they "
            "install is kept as an image named after the dependency files."
        },
    )
    setup_auto: bool = field(
        default=True,
        metadata={"doc": "With no `setup`, propose one from the dependency files."},
    )
    setup_network: bool = field(
        default=False,
        metadata={"doc": "Let setup use the network; only your own config.toml may turn this on."},
    )
    setup_timeout_s: float = field(
        default=1800.0, metadata={"doc": "Seconds the setup commands may take."}
    )
    state_dir: Path | None = field(
        default=None,
        metadata={
            "doc": "Where workspaces, outputs and checkpoints live (default "
            "`$XDG_STATE_HOME/kiln/sandboxes`)."
        },
    )
    # kiln's own bookkeeping, read by `kiln sandbox prune`.
    labels: dict[str, str] = field(
        default_factory=dict,
        metadata={
            "doc": "More labels on the container and volume (`kiln batch`: the batch "
            "and the task), beside kiln's own; not settable from files."
        },
    )


SAFE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
HOME = "/tmp/kiln-home"


def sandbox_env(config: SandboxConfig) -> dict[str, str]:
    """The whole environment inside: nothing inherited from kiln, nothing that can prompt."""
    env = {
        "PATH": SAFE_PATH,
        "HOME": HOME,
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "PAGER": "cat",
        "GIT_PAGER": "cat",
        "MANPAGER": "cat",
        "EDITOR": "true",
        "VISUAL": "true",
        "GIT_EDITOR": "true",
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_ASKPASS": "true",
        "DEBIAN_FRONTEND": "noninteractive",
        "PYTHONUNBUFFERED": "1",
        # Python run inside must not leave __pycache__ files in the diff a person reviews.
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    env.update(config.env)
    return env
