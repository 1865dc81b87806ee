"""What a sandbox container is made of: its limits, mounts, user, environment, and the
command server that starts with it. One Engine API body (`POST /containers/create`).

The workspace is an overlay volume made by the engine with the container itself (its
mount says how), so creating the sandbox is one call less; where an overlay cannot be
mounted, a plain copy is bind-mounted instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sandbox import gitstate, workspace
from sandbox.base import SandboxConfig
from sandbox.server_module import BOOT, MOUNTED_AT
from sandbox.services import SERVICES
from sandbox.sizes import parse_bytes

TMPFS_PATHS = ("/tmp", "/var/tmp")
SERVER_ARGV = ["python3", "-I", "-S", "-c"]  # the command server, given its source

# What the engine's own network setup would have put in /etc/hosts for a container
# with no network.
HOSTS = (
    "127.0.0.1\tlocalhost\n"
    "::1\tlocalhost ip6-localhost ip6-loopback\n"
    "fe00::0\tip6-localnet\n"
    "ff00::0\tip6-mcastprefix\n"
    "ff02::1\tip6-allnodes\n"
    "ff02::2\tip6-allrouters\n"
    "127.0.1.1\tkiln\n"
)


def tmp_size(memory: int, disk: int) -> int:
    """Each tmpfs's size: its pages are the container's memory, so both full together take
    half the memory limit at most, and the other half is left for commands and kiln's
    bookkeeping (a full /tmp must not get git OOM-killed); never more than the disk limit."""
    return max(1 << 20, min(disk, memory // (2 * len(TMPFS_PATHS))))


def overlay_volume(name: str, options: str, labels: dict[str, Any]) -> dict[str, Any]:
    """/workspace as the named overlay volume, created by the engine along with the
    container (and again along with a new one, should it be gone). NoCopy: nothing of the
    image's own /workspace is ever copied into it."""
    driver = {"Name": "local", "Options": {"type": "overlay", "device": "overlay", "o": options}}
    mount = _mount(gitstate.WORKSPACE, name, "volume")
    mount["VolumeOptions"] = {"NoCopy": True, "Labels": labels, "DriverConfig": driver}
    return mount


def copied_workspace(layout: workspace.Layout) -> dict[str, Any]:
    return _mount(gitstate.WORKSPACE, str(layout.copy), "bind")


def container_spec(
    *,
    image: str,
    repo: Path,
    layout: workspace.Layout,
    config: SandboxConfig,
    workspace_mount: dict[str, Any],
    env: dict[str, str],
    labels: dict[str, Any],
    with_server: bool,
    server_folder: Path | None = None,
) -> dict[str, Any]:
    """The create request's body. `server_folder`: the command server's module, mounted
    read-only for the server to import (sandbox/server_module.py); None: the server is
    handed over as its source."""
    uid, gid = workspace.repo_owner(repo)
    memory = parse_bytes(config.memory)
    disk = parse_bytes(config.disk_limit)
    host: dict[str, Any] = {
        "Init": True,  # reaps zombies left by commands' background children
        "CapDrop": ["ALL"],
        "SecurityOpt": ["no-new-privileges"],
        "PidsLimit": config.pids_limit,
        "Memory": memory,
        "MemorySwap": memory,
        "NanoCpus": int(config.cpus * 1e9),
        "Mounts": [workspace_mount, *_mounts(repo, layout, config, server_folder)],
        # The disk limit (sandbox/quota.py): no file grows past it, and what is not
        # the workspace or kiln's git dir is read-only but for /tmp and /var/tmp.
        "Ulimits": [{"Name": "fsize", "Soft": disk, "Hard": disk}],
        "ReadonlyRootfs": True,
        "Tmpfs": {path: f"size={tmp_size(memory, disk)},mode=1777" for path in TMPFS_PATHS},
    }
    spec: dict[str, Any] = {
        "Image": image,
        "Cmd": ["sleep", "infinity"],
        "User": f"{uid}:{gid}",
        "WorkingDir": gitstate.WORKSPACE,
        "Env": [f"{k}={v}" for k, v in env.items()],
        "Labels": labels,
        "OpenStdin": False,
        "Tty": False,
        "HostConfig": host,
    }
    if not config.network:
        # No network: a namespace of its own with only loopback. NetworkDisabled skips
        # the engine's network setup for it (half of a container's start); /etc/hosts,
        # which that setup would write, is mounted instead, and the backend's network
        # check proves the namespace has nothing but `lo`.
        host["NetworkMode"] = "none"
        spec.update(NetworkDisabled=True, Hostname="kiln")
    if with_server:
        # The command server starts with the container, on its attached stdin/stdout
        # (closed when kiln lets go: the server then stops what runs and exits). The
        # engine must not also copy every command's output into a container log.
        spec.update(Cmd=launch_command(server_folder is not None), OpenStdin=True, StdinOnce=True)
        spec.update(AttachStdin=True, AttachStdout=True, AttachStderr=True)
        host["LogConfig"] = {"Type": "none", "Config": {}}
    return spec


def _mounts(
    repo: Path, layout: workspace.Layout, config: SandboxConfig, server_folder: Path | None
) -> list[dict[str, Any]]:
    """Everything mounted besides the workspace: kiln's git dir, the commands' whole
    outputs, the services' logs, the repository's objects (read-only), the command
    server's module (read-only), and /etc/hosts without a network."""
    mounts = [
        _mount(gitstate.KILN_GIT, str(layout.kiln_git), "bind"),
        _mount(gitstate.OUTPUTS, str(layout.outputs), "bind", read_only=True),
        _mount(SERVICES, str(layout.services), "bind"),
    ]
    if server_folder is not None:
        mounts.append(_mount(MOUNTED_AT, str(server_folder), "bind", read_only=True))
    objects = gitstate.repo_objects(repo)
    if objects is not None:
        mounts.append(_mount(gitstate.KILN_OBJECTS, str(objects), "bind", read_only=True))
    if not config.network:
        hosts = layout.root / "hosts"
        if not hosts.exists():
            hosts.write_text(HOSTS)
            hosts.chmod(0o644)
        mounts.append(_mount("/etc/hosts", str(hosts), "bind", read_only=True))
    return mounts


def _mount(target: str, source: str, kind: str, *, read_only: bool = False) -> dict[str, Any]:
    return {"Target": target, "Source": source, "Type": kind, "ReadOnly": read_only}


# The container's main process: the server in the background, reading the attached stdin
# (kept on fd 3: a background job's stdin would be /dev/null). The shell waits for it and
# says on stderr when it ended: the attached streams stay open while the container runs,
# so this is how kiln learns at once that a command killed the server. `sleep` then holds
# the container up, so that does not end the container. Without python3 another marker
# ends kiln's wait for the server at once.
NO_PYTHON_MARKER = b"kiln-no-python3"
ENDED_MARKER = b"kiln-server-ended"
LAUNCH = (
    "exec 3<&0; if command -v python3 >/dev/null 2>&1; "
    'then python3 -I -S -c "$0" <&3 3<&- & exec 3<&-; wait $!; '
    f"echo {ENDED_MARKER.decode()} >&2; "
    f"else echo {NO_PYTHON_MARKER.decode()} >&2; fi; "
    "exec sleep infinity </dev/null >/dev/null 2>&1"
)


def launch_command(server_mounted: bool) -> list[str]:
    """The container's Cmd that starts the server along with the container: imported from
    its mounted folder, or else handed over as its source."""
    return ["sh", "-c", LAUNCH, BOOT if server_mounted else server_source()]


def server_source() -> str:
    return Path(__file__).with_name("exec_server.py").read_text(encoding="utf-8")
