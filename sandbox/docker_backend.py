"""The Docker backend: one locked-down container per session over a copy-on-write workspace.

/workspace is a Docker volume of the `local` driver mounting overlayfs: the repository is the
read-only lower layer, every write lands in an upper dir under kiln's state dir. Where an
overlay cannot be mounted, a plain copy is bind-mounted instead. Everything is done through
the docker SDK; the docker CLI is never run.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import shlex
import socket
import struct
import tarfile
import time
from pathlib import Path
from typing import Any

import docker
from docker.errors import APIError, DockerException, NotFound
from docker.types import Mount

from sandbox import engine, gitstate, reaper, workspace
from sandbox.base import SandboxConfig, SandboxError, SandboxGone
from sandbox.common import RunOutcome, Sink, WorkspaceSandbox, safe_relpath, sandbox_env
from sandbox.exec_channel import ChannelClosed, ExecChannel


class _ContainerMissing(Exception):
    """Internal: the container is gone before an exec could start."""


class DockerSandbox(WorkspaceSandbox):
    def __init__(self, repo: Path, config: SandboxConfig, *, session_id: str | None = None) -> None:
        super().__init__(repo, config)
        self.session_id = session_id or workspace.new_session_id()
        self.client: docker.DockerClient | None = None
        self.container_id: str | None = None
        self.volume_name: str | None = None
        self.mode: str | None = None  # "overlay" or "copy"
        self.ignored_hidden = False
        self.recoveries = 0
        self._image = config.image
        self._oom_seen = 0
        self._oom_killed_container = False
        self._channel: ExecChannel | None = None
        self._channel_unavailable = False  # the image cannot run the server: plain exec

    # -- lifecycle -------------------------------------------------------------------
    async def start(self) -> None:
        if self.baseline is not None:  # started already
            return
        await asyncio.to_thread(self._start_sync)
        await self._take_baseline()

    def _start_sync(self) -> None:
        if not self.repo.is_dir():
            raise SandboxError(f"{self.repo} is not a directory; pass the repository's path.")
        self.client = engine.connect()
        self._image = engine.image_for(self.client, self.repo, self.config)
        self.layout = workspace.make_layout(self.config.state_dir, self.session_id, self.repo)
        options = workspace.overlay_options(self.repo, self.layout)
        if options is not None:
            self.ignored_hidden = workspace.prepare_overlay(self.repo, self.layout)
            try:
                self.volume_name = self._create_volume(options)
                self._create_container(self._workspace_mount())
                self.mode = "overlay"
                return
            except DockerException:
                self._remove_container_and_volume()
        copy = workspace.prepare_copy(self.repo, self.layout)
        self.ignored_hidden = True
        self.mode = "copy"
        self._create_container(Mount(gitstate.WORKSPACE, str(copy), type="bind"))

    def _create_volume(self, options: str) -> str:
        assert self.client is not None and self.layout is not None
        name = f"kiln-{self.session_id}"
        self.client.volumes.create(
            name=name,
            driver="local",
            driver_opts={"type": "overlay", "device": "overlay", "o": options},
            labels=engine.labels(self.session_id, self.layout.root, self.repo),
        )
        return name

    def _workspace_mount(self) -> Mount:
        if self.mode == "copy" and self.layout is not None:
            return Mount(gitstate.WORKSPACE, str(self.layout.copy), type="bind")
        return Mount(gitstate.WORKSPACE, self.volume_name, type="volume")

    def _create_container(self, workspace_mount: Mount) -> None:
        assert self.client is not None and self.layout is not None
        uid, gid = workspace.repo_owner(self.repo)
        mounts = [workspace_mount, Mount(gitstate.KILN_GIT, str(self.layout.kiln_git), type="bind")]
        objects = gitstate.repo_objects(self.repo)
        if objects is not None:
            mounts.append(Mount(gitstate.KILN_OBJECTS, str(objects), type="bind", read_only=True))
        network: dict[str, Any] = {} if self.config.network else {"network_mode": "none"}
        container = self.client.containers.create(
            self._image,
            command=["sleep", "infinity"],
            init=True,  # reaps zombies left by commands' background children
            user=f"{uid}:{gid}",
            working_dir=gitstate.WORKSPACE,
            environment=sandbox_env(self.config),
            labels=engine.labels(self.session_id, self.layout.root, self.repo),
            name=f"kiln-{self.session_id}-{self.recoveries}",
            cap_drop=["ALL"],
            security_opt=["no-new-privileges"],
            pids_limit=self.config.pids_limit,
            mem_limit=self.config.memory,
            memswap_limit=self.config.memory,
            nano_cpus=int(self.config.cpus * 1e9),
            mounts=mounts,
            stdin_open=False,
            tty=False,
            **network,
        )
        self.container_id = container.id
        try:
            container.start()
        except DockerException:
            container.remove(force=True)
            self.container_id = None
            raise

    async def close(self) -> None:
        self._drop_channel()  # the server kills whatever still runs, then exits
        engine_socket = reaper.engine_socket()
        if engine_socket and (self.container_id or self.volume_name):
            # Removal takes the engine a while; nobody waits for it (see sandbox/reaper.py).
            try:
                reaper.reap_detached(
                    engine_socket,
                    self.container_id or "",
                    self.volume_name or "",
                    self.layout.root if self.layout else None,
                )
            except OSError:
                pass
            else:
                self.container_id = self.volume_name = None
                self.layout = None
                return
        await asyncio.to_thread(self._close_sync)

    def _close_sync(self) -> None:
        self._drop_channel()
        self._remove_container_and_volume()
        if self.layout is not None:
            workspace.remove_layout(self.layout)
            self.layout = None

    def _remove_container_and_volume(self) -> None:
        if self.client is None:
            return
        if self.container_id:
            with contextlib.suppress(NotFound):
                self.client.api.remove_container(self.container_id, force=True)
            self.container_id = None
        if self.volume_name:
            with contextlib.suppress(NotFound):
                self.client.api.remove_volume(self.volume_name, force=True)
            self.volume_name = None

    # -- running commands ------------------------------------------------------------
    async def _run(
        self,
        argv: list[str],
        sink: Sink,
        *,
        cwd: str,
        env: dict[str, str] | None = None,
        deadline_s: float | None = None,
        err_sink: Sink | None = None,
        stdin: bytes | None = None,
    ) -> RunOutcome:
        try:
            return await self._run_once(argv, sink, cwd, env, deadline_s, err_sink, stdin)
        except _ContainerMissing:
            await self._recover()
            return await self._run_once(argv, sink, cwd, env, deadline_s, err_sink, stdin)

    async def _run_once(
        self,
        argv: list[str],
        sink: Sink,
        cwd: str,
        env: dict[str, str] | None,
        deadline_s: float | None,
        err_sink: Sink | None,
        stdin: bytes | None,
    ) -> RunOutcome:
        code: int | None = None
        for _attempt in range(2):
            channel = await self._live_channel()
            if channel is None:
                break
            try:
                code, deadline_hit = await channel.run(
                    argv, sink, err_sink or sink, cwd=cwd, env=env, stdin=stdin,
                    deadline_s=deadline_s,
                )  # fmt: skip
                break
            except ChannelClosed:  # it died before the request went out: send it again
                channel = None
        if channel is None:
            if stdin is not None:
                raise SandboxError("The sandbox cannot take input now; run the step again.")
            code, deadline_hit = await asyncio.to_thread(
                self._exec_sync, argv, sink, cwd, env, deadline_s, err_sink
            )
        if code in (None, 137):  # killed, or the connection died: was it the container?
            return await asyncio.to_thread(self._judge, code, deadline_hit)
        return RunOutcome(int(code), deadline_hit=deadline_hit)

    async def _live_channel(self) -> ExecChannel | None:
        """The command server, started (again) when needed; None means plain docker exec."""
        if self._channel is not None and self._channel.alive:
            return self._channel
        if self._channel_unavailable:
            return None
        self._drop_channel()
        self._channel = await asyncio.to_thread(self._open_channel)
        return self._channel

    def _open_channel(self) -> ExecChannel | None:
        if self.client is None or self.container_id is None:
            raise SandboxError("The sandbox is not started; call start() first.")
        try:
            channel = ExecChannel.open(self.client.api, self.container_id)
        except NotFound:
            raise _ContainerMissing() from None
        except APIError as exc:
            if exc.status_code == 409:  # "container ... is not running"
                raise _ContainerMissing() from None
            raise
        self._channel_unavailable = channel is None
        return channel

    def _drop_channel(self) -> None:
        if self._channel is not None:
            self._channel.close()
            self._channel = None

    def _exec_sync(
        self,
        argv: list[str],
        sink: Sink,
        cwd: str,
        env: dict[str, str] | None,
        deadline_s: float | None,
        err_sink: Sink | None,
    ) -> tuple[int | None, bool]:
        """One plain `docker exec` (images without python3): (exit status, deadline hit)."""
        if self.client is None or self.container_id is None:
            raise SandboxError("The sandbox is not started; call start() first.")
        api = self.client.api
        try:
            exec_id = api.exec_create(
                self.container_id,
                argv,
                stdout=True,
                stderr=True,
                stdin=False,
                tty=False,
                workdir=cwd,
                environment=env or None,
            )["Id"]
        except NotFound:
            raise _ContainerMissing() from None
        except APIError as exc:
            if exc.status_code == 409:  # "container ... is not running"
                raise _ContainerMissing() from None
            raise
        raw = api.exec_start(exec_id, socket=True)
        deadline = None if deadline_s is None else time.monotonic() + deadline_s
        deadline_hit = not _pump_frames(raw, sink, err_sink or sink, deadline)
        try:
            exit_code = _finished_exec(api, exec_id).get("ExitCode")
        except NotFound:
            exit_code = None
        return exit_code, deadline_hit

    def _judge(self, exit_code: int | None, deadline_hit: bool) -> RunOutcome:
        """A command was killed or lost: tell an OOM kill, a vanished container and a
        command that took the server down apart."""
        assert self.client is not None
        api = self.client.api
        if exit_code in (None, 137) and not self._container_alive(api):
            self._drop_channel()
            if self._oom_killed_container:
                return RunOutcome(137, oom_killed=True)
            raise SandboxGone(
                "The sandbox container was stopped from outside while a command ran; the "
                "next command starts a fresh one restored from the last checkpoint."
            )
        if exit_code is None:
            return RunOutcome(-1, deadline_hit=deadline_hit)
        oom = exit_code == 137 and self._new_oom_kill()
        return RunOutcome(int(exit_code), oom_killed=oom, deadline_hit=deadline_hit)

    def _container_alive(self, api: Any) -> bool:
        """A killed process (137) may mean the container is going away: look a few times,
        because the engine updates the container's state a moment after the exec ends."""
        self._oom_killed_container = False
        for _ in range(10):
            try:
                state = api.inspect_container(self.container_id)["State"]
            except NotFound:
                return False
            if not state.get("Running") or state.get("Status") in ("removing", "exited", "dead"):
                self._oom_killed_container = bool(state.get("OOMKilled"))
                return False
            time.sleep(0.03)
        return True

    def _new_oom_kill(self) -> bool:
        """Did the kernel's OOM killer fire in this container since we last looked?"""
        assert self.client is not None and self.container_id is not None
        script = (
            "cat /sys/fs/cgroup/memory/memory.oom_control /sys/fs/cgroup/memory.events"
            " 2>/dev/null | awk '$1==\"oom_kill\"{print $2}'"
        )
        result = self.client.api.exec_create(self.container_id, ["sh", "-c", script])
        out = self.client.api.exec_start(result["Id"]).decode().split()
        count = int(out[0]) if out and out[0].isdigit() else 0
        fired = count > self._oom_seen
        self._oom_seen = count
        return fired

    async def _recover(self) -> None:
        """The container vanished: start a fresh one on the same workspace, back to the
        last checkpoint (the workspace is otherwise kept as it was)."""
        await asyncio.to_thread(self._recover_sync)
        await self._script('mkdir -p "$HOME"')
        if self.last_checkpoint:
            await self.restore(self.last_checkpoint)

    def _recover_sync(self) -> None:
        assert self.client is not None and self.layout is not None
        self.recoveries += 1
        self._oom_seen = 0
        self._drop_channel()
        if self.container_id:
            with contextlib.suppress(NotFound):
                self.client.api.remove_container(self.container_id, force=True)
        try:
            if self.mode == "overlay" and self.volume_name:
                try:
                    self.client.volumes.get(self.volume_name)
                except NotFound:
                    options = workspace.overlay_options(self.repo, self.layout)
                    assert options is not None
                    self._create_volume(options)
            self._create_container(self._workspace_mount())
        except DockerException as exc:
            raise SandboxGone(
                f"The sandbox container disappeared and a new one could not start ({exc}); "
                "run `kiln sandbox doctor`."
            ) from None

    # -- files -----------------------------------------------------------------------
    async def write_file(self, path: str, data: bytes) -> None:
        rel = safe_relpath(path)
        target = shlex.quote(f"{gitstate.WORKSPACE}/{rel}")
        # `cat >` keeps the mode of an existing file.
        write = f'mkdir -p "$(dirname {target})" && cat > {target}'
        if await self._live_channel() is not None:
            outcome = await self._run(
                ["bash", "-c", write], lambda _: None, cwd=gitstate.WORKSPACE, stdin=data
            )
            code = outcome.exit_code
        else:  # plain docker exec has no input: stage the bytes with an archive upload
            staged = f".kiln-upload-{next(self._counter)}"
            await asyncio.to_thread(self._upload, staged, data)
            code, _out = await self._script(
                f"{write} < /tmp/{staged}; s=$?; rm -f /tmp/{staged}; exit $s", check=False
            )
        if code != 0:
            raise SandboxError(f"Writing {rel} in the sandbox failed; check the path ({rel}).")

    def _upload(self, name: str, data: bytes) -> None:
        assert self.client is not None and self.container_id is not None
        uid, gid = workspace.repo_owner(self.repo)
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as tar:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = 0o600
            info.uid, info.gid = uid, gid
            info.mtime = int(time.time())
            tar.addfile(info, io.BytesIO(data))
        try:
            self.client.api.put_archive(self.container_id, "/tmp", buf.getvalue())
        except NotFound:
            raise SandboxGone(
                "The sandbox container is gone; run the next command to get a fresh one."
            ) from None


def _pump_frames(raw: Any, out: Sink, err: Sink, deadline: float | None) -> bool:
    """Copy docker's multiplexed exec stream to the sinks; False if the deadline passed.

    Reads straight from the socket in bounded pieces, so memory stays flat however much
    a command prints.
    """
    sock: socket.socket = getattr(raw, "_sock", raw)
    try:
        while True:
            header = _read_exact(sock, 8, deadline)
            if header is None:
                return True
            kind, size = struct.unpack(">BxxxL", header)
            sink = err if kind == 2 else out
            while size > 0:
                piece = _read_exact(sock, min(size, 65536), deadline)
                if piece is None:
                    return True
                sink(piece)
                size -= len(piece)
    except TimeoutError:
        return False
    finally:
        try:
            sock.close()
        finally:
            raw.close()


def _read_exact(sock: socket.socket, n: int, deadline: float | None) -> bytes | None:
    chunks: list[bytes] = []
    while n > 0:
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            sock.settimeout(remaining)
        data = sock.recv(n)  # socket.timeout is TimeoutError
        if not data:
            return None
        chunks.append(data)
        n -= len(data)
    return b"".join(chunks)


def _finished_exec(api: Any, exec_id: str) -> dict[str, Any]:
    """The stream can close a moment before the engine records the exit code."""
    info: dict[str, Any] = api.exec_inspect(exec_id)
    for _ in range(50):
        if not info.get("Running") and info.get("ExitCode") is not None:
            break
        time.sleep(0.01)
        info = api.exec_inspect(exec_id)
    return info
