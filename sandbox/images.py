"""Building sandbox images: from a Dockerfile (`build`) or with no registry (`bootstrap`).

Both can take minutes, so both show a live progress line (rich) with the current step.
`bootstrap` runs debootstrap into a directory and imports that root filesystem through
the docker SDK, so it needs Debian's package archive but no container registry (and npm's,
for the language servers: sandbox/language_servers.py).
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
from sandbox.language_servers import NPM_PACKAGES

DEFAULT_DOCKERFILE = Path(__file__).with_name("Dockerfile")
BOOTSTRAP_PACKAGES = ("python3", "python3-pytest", "git", "ca-certificates", "procps")
# What real projects need to build and test besides: pip and venv, make and a C compiler
# (native extensions), node and npm. Installed with apt inside the new root (debootstrap's
# own resolver gives up on npm's dependencies). More with `--with`.
TOOLCHAINS = (
    "python3-pip", "python3-venv", "make", "gcc", "libc6-dev", "nodejs", "npm",
)  # fmt: skip
EXTRA_TOOLCHAINS = {"go": ("golang-go",), "rust": ("cargo", "rustc")}


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
    extra: tuple[str, ...] = (),
    rootfs: Path | None = None,
    console: Console | None = None,
) -> str:
    """debootstrap a minimal Debian with the common toolchains (BOOTSTRAP_PACKAGES) and
    those named in `extra` (keys of EXTRA_TOOLCHAINS) and the language servers, then
    import it as `tag`."""
    unknown = [name for name in extra if name not in EXTRA_TOOLCHAINS]
    if unknown:
        raise SandboxError(
            f"There is no toolchain {unknown[0]!r} to add; choose from "
            f"{', '.join(EXTRA_TOOLCHAINS)}."
        )
    toolchains = [*TOOLCHAINS, *(p for name in extra for p in EXTRA_TOOLCHAINS[name])]
    if shutil.which("debootstrap") is None:
        raise SandboxError(
            "debootstrap is not installed; install it (`apt-get install debootstrap`) and retry."
        )
    if os.geteuid() != 0:
        raise SandboxError("debootstrap needs root; run `sudo kiln sandbox bootstrap`.")
    with tempfile.TemporaryDirectory(prefix="kiln-rootfs-") as tmp, _progress(console) as progress:
        target = rootfs or Path(tmp) / "rootfs"
        task = progress.add_task(f"bootstrapping {tag}", step="debootstrap", total=None)
        report = lambda step: progress.update(task, step=step)  # noqa: E731
        _debootstrap(suite, target, report)
        _install_in_root(target, toolchains, report)
        _install_language_servers(target, report)
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


def _install_in_root(target: Path, packages: list[str], report: Any) -> None:
    """apt-get install `packages` inside the debootstrapped root, then drop apt's caches."""
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive", "LC_ALL": "C"}
    for step in (
        ["apt-get", "update", "-qq"],
        ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages],
        ["apt-get", "clean"],
    ):
        report(
            " ".join(step[:2])
            + (f" {len(packages)} toolchain packages" if "install" in step else "")
        )
        done = subprocess.run(
            ["chroot", str(target), *step], env=env, capture_output=True, text=True
        )
        if done.returncode != 0:
            last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
            raise SandboxError(
                f"Installing the toolchains failed ({last[0][:160]}); check that Debian's "
                "package archive is reachable and retry."
            )
    shutil.rmtree(target / "var" / "lib" / "apt" / "lists", ignore_errors=True)


def _install_language_servers(target: Path, report: Any) -> None:
    """npm install the language servers (sandbox/language_servers.py), pinned, inside the
    new root with its own node; no cache is left in the image. npm there trusts what the
    host's node trusts (NODE_EXTRA_CA_CERTS, copied in for the install)."""
    report(f"npm install {len(NPM_PACKAGES)} language server packages")
    env = {
        **os.environ, "LC_ALL": "C", "npm_config_cache": "/tmp/kiln-npm-cache",
        "npm_config_update_notifier": "false", "npm_config_fund": "false",
        "npm_config_audit": "false",
    }  # fmt: skip
    extra_ca = os.environ.get("NODE_EXTRA_CA_CERTS", "")
    if extra_ca and Path(extra_ca).is_file():
        shutil.copyfile(extra_ca, target / "tmp" / "kiln-host-ca.pem")
        env["NODE_EXTRA_CA_CERTS"] = "/tmp/kiln-host-ca.pem"
    else:
        env.pop("NODE_EXTRA_CA_CERTS", None)
    try:
        done = subprocess.run(
            ["chroot", str(target), "npm", "install", "--global", *NPM_PACKAGES],
            env=env, capture_output=True, text=True,
        )  # fmt: skip
    finally:
        shutil.rmtree(target / "tmp" / "kiln-npm-cache", ignore_errors=True)
        (target / "tmp" / "kiln-host-ca.pem").unlink(missing_ok=True)
    if done.returncode != 0:
        last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise SandboxError(
            f"Installing the language servers failed ({last[0][:160]}); check that the npm "
            "registry is reachable and retry."
        )


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
