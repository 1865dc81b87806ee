"""Talking to the Docker engine: connect, find or build the image, each failure one sentence.

The docker SDK is imported only when used: a session speaks to the engine through
sandbox.engine_api, and importing the SDK would cost it a tenth of a second.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sandbox.base import DEFAULT_IMAGE, SandboxConfig, SandboxError

if TYPE_CHECKING:
    import docker

LABEL = "kiln.sandbox"


class EngineUnavailable(SandboxError):
    """No Docker engine answers (not installed, not running, or no permission)."""


def connect(timeout: float = 60) -> docker.DockerClient:
    import docker
    from docker.errors import DockerException

    where = os.environ.get("DOCKER_HOST") or "unix:///var/run/docker.sock"
    try:
        client = docker.from_env(timeout=timeout)
        client.ping()
    except DockerException as exc:
        text = str(exc)
        if "Permission denied" in text:
            raise EngineUnavailable(
                f"kiln may not talk to the Docker engine at {where}; add yourself to the "
                "`docker` group (then log in again) or use `--backend bwrap` (docs/sandbox.md)."
            ) from None
        raise EngineUnavailable(
            f"The Docker engine at {where} is not running; start it (e.g. `sudo systemctl "
            "start docker` or `dockerd &`) or use `--backend bwrap` (docs/sandbox.md)."
        ) from None
    return client


def image_for(client: Any, repo: Path, config: SandboxConfig) -> str:
    """The image this repository's sandbox runs: its own Dockerfile, its own image, or ours.

    `client` is an SDK DockerClient or a sandbox.engine_api.Engine.
    """
    if config.dockerfile:
        dockerfile = (repo / config.dockerfile).resolve()
        if not dockerfile.is_file():
            raise SandboxError(
                f"The sandbox Dockerfile {config.dockerfile} named in .kiln.toml does not "
                "exist; fix `[sandbox] dockerfile` or remove it."
            )
        tag = image_for_tag(dockerfile)
        if not _has_image(client, tag):
            from sandbox.images import build_image

            # The build streams through the SDK: an Engine (no `api`) gets a client of its own.
            builder = client if hasattr(client, "api") else connect(timeout=3600)
            build_image(builder, context=dockerfile.parent, dockerfile=dockerfile, tag=tag)
        return tag
    if not _has_image(client, config.image):
        if config.image == DEFAULT_IMAGE:
            raise SandboxError(
                f"The sandbox image {DEFAULT_IMAGE} is missing; run `kiln sandbox bootstrap` "
                "(offline) or `kiln sandbox build`."
            )
        raise SandboxError(
            f"The sandbox image {config.image} is not present; pull or build it, or change "
            "`[sandbox] image` in .kiln.toml."
        )
    return config.image


def image_for_tag(dockerfile: Path) -> str:
    """A repository's own image is named after its Dockerfile's content, so edits rebuild."""
    return "kiln-repo-" + hashlib.sha256(dockerfile.read_bytes()).hexdigest()[:12] + ":latest"


def _has_image(client: Any, name: str) -> bool:
    if hasattr(client, "image_exists"):
        return bool(client.image_exists(name))
    from docker.errors import ImageNotFound

    try:
        client.images.get(name)
    except ImageNotFound:
        return False
    return True


def labels(
    session_id: str, state: Path, repo: Path, extra: dict[str, str] | None = None
) -> dict[str, Any]:
    return {
        **(extra or {}),  # first: kiln's own labels always win
        LABEL: "1",
        "kiln.session": session_id,
        "kiln.pid": str(os.getpid()),
        "kiln.state": str(state),
        "kiln.repo": str(repo),
    }
