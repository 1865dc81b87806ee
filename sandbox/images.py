"""Building sandbox images: from a Dockerfile (`build`) or with no registry (`bootstrap`).

Both can take minutes, so both show a live progress line (rich) with the current step.
`bootstrap` runs debootstrap into a directory and imports that root filesystem through
the docker SDK, so it needs Debian's package archive but no container registry.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import docker
from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from sandbox.base import DEFAULT_IMAGE, SandboxError

DEFAULT_DOCKERFILE = Path(__file__).with_name("Dockerfile")
BOOTSTRAP_PACKAGES = ("python3", "python3-pytest", "git", "ca-certificates", "procps")


def _progress(console: Console | None = None) -> Progress:
    return Progress(
        SpinnerColumn(),
        TextColumn("[bold]{task.description}"),
        TextColumn("{task.fields[step]}", style="dim"),
        TimeElapsedColumn(),
        console=console or Console(stderr=True),
        transient=False,
    )


def build_image(
    client: docker.DockerClient,
    *,
    context: Path,
    dockerfile: Path,
    tag: str,
    buildargs: dict[str, str] | None = None,
    console: Console | None = None,
) -> str:
    """docker build through the SDK, streaming each step into the progress line."""
    with _progress(console) as progress:
        task = progress.add_task(f"building {tag}", step="sending context", total=None)
        last_error = ""
        stream = client.api.build(
            path=str(context),
            dockerfile=str(dockerfile),
            tag=tag,
            buildargs=buildargs or {},
            rm=True,
            forcerm=True,
            decode=True,
            network_mode="none",
        )
        for chunk in stream:
            text = str(chunk.get("stream") or chunk.get("status") or "").strip()
            if chunk.get("error"):
                last_error = str(chunk["error"]).strip()
            if text:
                progress.update(task, step=text.splitlines()[-1][:80])
        if last_error:
            raise SandboxError(
                f"Building {tag} failed ({last_error.splitlines()[-1][:160]}); fix the "
                "Dockerfile or pick another base with --base."
            )
        progress.update(task, step="done")
    return tag


def bootstrap_image(
    client: docker.DockerClient,
    *,
    tag: str = DEFAULT_IMAGE,
    suite: str = "bookworm",
    rootfs: Path | None = None,
    console: Console | None = None,
) -> str:
    """debootstrap a minimal Debian with python3, pytest and git, then import it as `tag`."""
    if shutil.which("debootstrap") is None:
        raise SandboxError(
            "debootstrap is not installed; install it (`apt-get install debootstrap`) and retry."
        )
    if os.geteuid() != 0:
        raise SandboxError("debootstrap needs root; run `sudo kiln sandbox bootstrap`.")
    with tempfile.TemporaryDirectory(prefix="kiln-rootfs-") as tmp, _progress(console) as progress:
        target = rootfs or Path(tmp) / "rootfs"
        task = progress.add_task(f"bootstrapping {tag}", step="debootstrap", total=None)
        _debootstrap(suite, target, lambda step: progress.update(task, step=step))
        progress.update(task, step="packing the root filesystem")
        archive = Path(tmp) / "rootfs.tar"
        subprocess.run(
            ["tar", "--numeric-owner", "-C", str(target), "-cf", str(archive), "."],
            check=True,
        )
        progress.update(task, step=f"importing {archive.stat().st_size // 2**20} MiB")
        repository, _, version = tag.rpartition(":") if ":" in tag else (tag, "", "latest")
        client.api.import_image_from_file(
            str(archive),
            repository=repository,
            tag=version or "latest",
            changes=["ENV LANG=C.UTF-8", 'CMD ["bash"]'],
        )
        progress.update(task, step="done")
    return tag


def _debootstrap(suite: str, target: Path, report: Any) -> None:
    cmd = [
        "debootstrap",
        "--variant=minbase",
        f"--include={','.join(BOOTSTRAP_PACKAGES)}",
        suite,
        str(target),
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    tail: list[str] = []
    for line in proc.stdout:
        line = line.strip()
        if line:
            tail = [*tail[-5:], line]
            report(line.removeprefix("I: ")[:80])
    if proc.wait() != 0:
        raise SandboxError(
            f"debootstrap failed ({tail[-1] if tail else 'no output'}); check that Debian's "
            "package archive is reachable and retry."
        )
