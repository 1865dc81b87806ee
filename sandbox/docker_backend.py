"""The Docker backend: one locked-down container per session over a copy-on-write workspace.

/workspace is a Docker volume of the `local` driver mounting overlayfs, made by the engine
with the container (sandbox/container_spec.py: what the container is made of): the
repository is the read-only lower layer, every write lands in an upper dir under kiln's
state dir. Where an overlay cannot be mounted, a plain copy is bind-mounted instead. The engine is spoken to
through its API (sandbox/engine_api.py); the docker CLI is never run. Commands go through
a server inside the container (sandbox/exec_server.py), or plain `docker exec` where that
server cannot run.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

from sandbox import engine, gitstate, reaper, setup, strays, workspace
from sandbox.attached import AttachedProcess, AttachFailed
from sandbox.base import SandboxConfig, SandboxError, SandboxGone, Sink
from sandbox.common import RunOutcome, WorkspaceSandbox, command_argv, safe_relpath
from sandbox.docker_exec import ContainerMissing, output_of, plain_exec, upload
from sandbox.engine_api import Engine, EngineError, EngineNotFound
from sandbox.exec_channel import ChannelClosed, Ended, ExecChannel
from sandbox.launch import ContainerLaunch, EarlyLaunch, new_launch, remove
from sandbox.service_table import ServiceTable

T = TypeVar("T")


class DockerSandbox(WorkspaceSandbox):
    backend = "docker"

    def __init__(
        self,
        repo: Path,
        config: SandboxConfig,
        *,
        session_id: str | None = None,
        early: EarlyLaunch | None = None,
    ) -> None:
        super().__init__(repo, config)
        self.session_id = session_id or workspace.new_session_id()
        # What the container is made of; `early`: its launch, begun before this sandbox
        # was made (sandbox/launch.py), which start() adopts.
        self._early = early
        self._launch = early.launch if early else new_launch(repo, config, self.session_id)
        self.instance = self._launch.instance
        self.client: Engine | None = None
        self.container_id: str | None = None
        self.volume_name: str | None = None
        self.ignored_hidden = False
        self.recoveries = 0
        self._oom_seen = 0
        self._oom_killed_container = False
        self._channel: ExecChannel | None = None
        # Commands go through the in-container server; False (an image without python3,
        # or set before start()) means one plain `docker exec` each.
        self.command_server = True
        self.setup_env: dict[str, str] = {}  # where setup installed things, once it ran
        self._cancel_setup = early.cancel if early else threading.Event()
        self._progress_here: setup.Progress = self.progress
        self._waiting_here: Callable[[], None] = lambda: None
        self.service_table = ServiceTable(self._live_channel)  # the jobs, on its server

    # -- lifecycle -------------------------------------------------------------------
    async def start(self) -> None:
        if self.baseline is not None:  # started already
            return
        loop = asyncio.get_running_loop()

        def progress_here(line: str) -> None:  # setup reports from the starting thread
            loop.call_soon_threadsafe(self.progress, line)

        def waiting_here() -> None:  # once: a recovery's new container is no start
            self._waiting_here = lambda: None
            loop.call_soon_threadsafe(self.waiting)

        self._progress_here, self._waiting_here = progress_here, waiting_here
        starting = asyncio.ensure_future(asyncio.to_thread(self._start_sync))
        try:
            await asyncio.shield(starting)
        except asyncio.CancelledError:
            self._cancel_setup.set()  # the setup container goes; then the thread ends
            with contextlib.suppress(BaseException):
                await starting
            raise
        # Both at once (the server runs requests side by side); the check's verdict wins.
        outcomes = await asyncio.gather(
            self._check_network(), self._take_baseline(), return_exceptions=True
        )
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                raise outcome
        self.idle_watch.start()

    def _start_sync(self) -> None:
        made = self._launch
        try:
            if self._early is not None:
                self._early.take()
            else:
                made.command_server = self.command_server
                made.start(self._progress_here, self._cancel_setup, self._waiting_here)
        finally:  # what it made is this sandbox's to close, whether it started or not
            self.client, self.layout, self.mode = made.client, made.layout, made.mode
            self.volume_name, self.container_id = made.volume_name, made.container_id
            self.ignored_hidden, self.setup_env = made.ignored_hidden, made.setup_env
            self.notes.extend(made.notes)
        self._connect(made)

    def _create_container(self) -> None:
        """A new container on the same workspace (the last one vanished)."""
        made = self._launch
        made.container_id, made.recoveries = None, self.recoveries
        made.command_server = self.command_server
        made.create(self._waiting_here)
        self.container_id = made.container_id
        self._connect(made)

    def _connect(self, made: ContainerLaunch) -> None:
        if made.stream is not None:
            self._channel = ExecChannel.connect(made.stream)
            self.command_server = self._channel is not None
            made.stream = None

    async def close(self) -> None:
        if self._early is not None and not self._early.settled:  # start() never took it
            await asyncio.to_thread(self._early.abandon)  # what it made goes
        self._stop_background_snapshot()
        await self.idle_watch.stop()
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
        remove(self.client, self.container_id, self.volume_name)
        self.container_id = self.volume_name = None

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
        sweep: bool = False,
        limit: float | None = None,
    ) -> RunOutcome:
        """`limit`: argv is ["bash", "-c", cmd], one of exec()'s commands, which the command
        server runs under that limit itself (see _run_command); plain exec wraps it."""
        run = (argv, sink, cwd, env, deadline_s, err_sink, stdin, sweep, limit)
        try:
            return await self._run_once(*run)
        except ContainerMissing:
            await self._recover()
            return await self._run_once(*run)

    async def _run_once(
        self,
        argv: list[str],
        sink: Sink,
        cwd: str,
        env: dict[str, str] | None,
        deadline_s: float | None,
        err_sink: Sink | None,
        stdin: bytes | None,
        sweep: bool,
        limit: float | None,
    ) -> RunOutcome:
        ended: Ended | None = None
        for _attempt in range(2):
            channel = await self._live_channel()
            if channel is None:
                break
            try:
                ended = await channel.run(
                    argv, sink, err_sink or sink, cwd=cwd, env=env, stdin=stdin,
                    deadline_s=deadline_s, sweep=sweep, limit=limit,
                )  # fmt: skip
                break
            except ChannelClosed:  # it died before the request went out: send it again
                channel = None
        if ended is None:
            if stdin is not None:
                raise SandboxError("The sandbox cannot take input now; run the step again.")
            if limit is not None:
                argv = command_argv(argv[-1], limit)
            code, deadline_hit = await self._plain_exec(argv, sink, err_sink, cwd, env, deadline_s)
            strays = await self.stop_strays() if sweep else 0
            ended = Ended(code, deadline_hit, strays)
        if ended.code in (None, 137):  # killed, or the connection died: was it the container?
            return await asyncio.to_thread(self._judge, ended)
        oom = ended.oom_kills >= 0 and self._oom_count(ended.oom_kills)
        return RunOutcome(ended.code, oom, ended.deadline_hit, ended.strays)

    async def _run_command(self, cmd: str, limit: float, sink: Sink, cwd: str) -> RunOutcome:
        """Through the command server, which does the wrapper's work itself: two processes
        (the wrapper's shell and `timeout`) fewer for every command."""
        return await self._run(
            ["bash", "-c", cmd], sink, cwd=cwd, deadline_s=limit + 10, sweep=True, limit=limit
        )

    async def stop_strays(self) -> int:
        """Kill what commands left running outside their process groups; how many. Through
        the server when it runs (its sweep), else with one `docker exec` of a script."""
        channel = await self._live_channel()
        if channel is not None:
            with contextlib.suppress(ChannelClosed):
                ended = await channel.run(
                    ["true"], _drop, _drop, cwd="/", env=None, stdin=None, deadline_s=60,
                    sweep=True,
                )  # fmt: skip
                return ended.strays
        found = await asyncio.to_thread(
            output_of, *self._need_container(), ["sh", "-c", strays.SWEEP_SCRIPT]
        )
        return len(found.split())

    async def _plain_exec(
        self,
        argv: list[str],
        sink: Sink,
        err_sink: Sink | None,
        cwd: str,
        env: dict[str, str] | None,
        deadline_s: float | None,
    ) -> tuple[int | None, bool]:
        """One `docker exec`, in a thread. Cancelled, it ends the command's process group
        itself: the thread cannot be interrupted, and the command would run on."""
        engine_, container = self._need_container()
        group_file = f"{gitstate.KILN_GIT}/kiln-group-{os.urandom(16).hex()}"
        try:
            return await asyncio.to_thread(
                plain_exec, engine_, container, argv, sink, err_sink or sink,
                cwd=cwd, env={**(env or {}), "KILN_GROUP_FILE": group_file}, deadline_s=deadline_s,
            )  # fmt: skip
        except asyncio.CancelledError:
            end_group = 'kill -KILL -- "-$(cat "$0")" 2>/dev/null; rm -f "$0"'
            with contextlib.suppress(Exception):
                await asyncio.to_thread(
                    output_of, engine_, container, ["bash", "-c", end_group, group_file]
                )
            raise

    async def attach(self, argv: list[str], *, cwd: str) -> AttachedProcess:
        """A long-lived process with its stdin held by kiln (a language server), started
        by the command server (sandbox/channel_attached.py), or without one on a `docker
        exec` of its own (sandbox/docker_attached.py); no stray to the sweep either way."""
        for _attempt in range(2):
            try:
                channel = await self._live_channel()
            except ContainerMissing:
                raise AttachFailed("the sandbox's container is gone") from None
            except (EngineError, engine.EngineUnavailable) as exc:
                raise AttachFailed(f"the Docker engine refused: {exc}") from None
            if channel is None:
                break
            from sandbox.channel_attached import ChannelAttached

            with contextlib.suppress(ChannelClosed):  # it died before taking it: again
                return await ChannelAttached.start(channel, argv, cwd)
        from sandbox.docker_attached import DockerAttached

        return await DockerAttached.start(*self._need_container(), argv, cwd)

    def _need_container(self) -> tuple[Engine, str]:
        if self.client is None or self.container_id is None:
            raise SandboxError("The sandbox is not started; call start() first.")
        return self.client, self.container_id

    async def _live_channel(self) -> ExecChannel | None:
        """The command server, started (again) when needed; None means plain docker exec."""
        if self._channel is not None and self._channel.alive:
            return self._channel
        if not self.command_server:
            return None
        self._drop_channel()
        self._channel = await asyncio.to_thread(self._open_channel)
        return self._channel

    def _open_channel(self) -> ExecChannel | None:
        engine_, container = self._need_container()
        channel = ExecChannel.open(engine_, container)
        self.command_server = channel is not None
        return channel

    def _drop_channel(self) -> None:
        if self._channel is not None:
            self._channel.close()
            self._channel = None

    def _judge(self, ended: Ended) -> RunOutcome:
        """A command was killed or lost: tell an OOM kill, a vanished container and a
        command that took the server down apart."""
        if not self._container_alive():
            self._drop_channel()
            if self._oom_killed_container:
                return RunOutcome(137, oom_killed=True)
            raise SandboxGone(
                "The sandbox container was stopped from outside while a command ran; the "
                "next command starts a fresh one restored from the last checkpoint."
            )
        if ended.code is None:
            return RunOutcome(-1, deadline_hit=ended.deadline_hit, strays=ended.strays)
        oom = self._oom_count(ended.oom_kills if ended.oom_kills >= 0 else self._oom_kills())
        return RunOutcome(ended.code, oom, ended.deadline_hit, ended.strays)

    def _container_alive(self) -> bool:
        """A killed process (137) may mean the container is going away: look a few times,
        because the engine updates the container's state a moment after the exec ends."""
        engine_, container = self._need_container()
        self._oom_killed_container = False
        for _ in range(10):
            try:
                state = engine_.inspect_container(container)["State"]
            except EngineNotFound:
                return False
            if not state.get("Running") or state.get("Status") in ("removing", "exited", "dead"):
                self._oom_killed_container = bool(state.get("OOMKilled"))
                return False
            time.sleep(0.03)
        return True

    def _oom_kills(self) -> int:
        """The container's OOM kills so far, asked with a `docker exec` (no server)."""
        script = (
            "cat /sys/fs/cgroup/memory/memory.oom_control /sys/fs/cgroup/memory.events"
            " 2>/dev/null | awk '$1==\"oom_kill\"{print $2}'"
        )
        out = output_of(*self._need_container(), ["sh", "-c", script]).decode().split()
        return int(out[0]) if out and out[0].isdigit() else 0

    def _oom_count(self, count: int) -> bool:
        """Did the kernel's OOM killer fire in this container since we last looked?"""
        fired = count > self._oom_seen
        self._oom_seen = max(count, self._oom_seen)
        return fired

    async def _check_network(self) -> None:
        """Without a network, the container must have none: loopback is its only interface.
        The command server said which it has as it started; without it, a command asks."""
        if self.config.network:
            return
        said = self._channel.interfaces if self._channel is not None else None
        if said is not None:
            only_loopback = said == ("lo",)
        else:
            code, _out = await self._script(
                'set -- /sys/class/net/*; [ "$*" = /sys/class/net/lo ]', check=False
            )
            only_loopback = code == 0
        if not only_loopback:
            await self.close()
            raise SandboxError(
                "The sandbox container has network interfaces besides loopback, though "
                "its network is off; run `kiln sandbox doctor` and report this engine."
            )

    async def _recover(self) -> None:
        """The container vanished: start a fresh one on the same workspace, back to the
        last checkpoint (the workspace is otherwise kept as it was)."""
        await asyncio.to_thread(self._recover_sync)
        await self._check_network()
        await self._script('mkdir -p "$HOME"')
        if self.last_checkpoint:
            await self.restore(self.last_checkpoint)

    def _recover_sync(self) -> None:
        assert self.client is not None and self.layout is not None
        self.recoveries += 1
        self._oom_seen = 0
        self._drop_channel()
        try:
            if self.container_id:
                self.client.remove_container(self.container_id)
            self._create_container()  # and the overlay volume again, should it be gone
        except (EngineError, SandboxError) as exc:
            raise SandboxGone(
                f"The sandbox container disappeared and a new one could not start ({exc}); "
                "run `kiln sandbox doctor`."
            ) from None

    # -- files -----------------------------------------------------------------------
    async def read_file(self, path: str) -> bytes:
        """Read by the command server itself: no `cat` to start."""
        rel = safe_relpath(path)
        answer = await self._by_server(lambda c: c.read(f"{gitstate.WORKSPACE}/{rel}"))
        if answer is None:
            return await super().read_file(path)
        code, data = answer
        if code != 0:
            raise FileNotFoundError(f"{rel} does not exist in the workspace")
        return data

    async def _write_file(self, path: str, data: bytes) -> None:
        rel = safe_relpath(path)
        answer = await self._by_server(lambda c: c.write(f"{gitstate.WORKSPACE}/{rel}", data))
        code = answer[0] if answer is not None else await self._write_by_script(rel, data)
        if code != 0:
            raise SandboxError(f"Writing {rel} in the sandbox failed; check the path ({rel}).")

    async def _by_server(
        self, ask: Callable[[ExecChannel], Awaitable[tuple[int | None, T]]]
    ) -> tuple[int, T] | None:
        """`ask` answered by the command server; None where there is none, or it went
        away meanwhile: then a script does the same (and recovers a vanished container)."""
        try:
            channel = await self._live_channel()
            answer = await ask(channel) if channel is not None else None
        except (ContainerMissing, ChannelClosed):
            return None
        if answer is None or answer[0] is None:
            return None
        return answer[0], answer[1]

    async def _write_by_script(self, rel: str, data: bytes) -> int:
        target = shlex.quote(f"{gitstate.WORKSPACE}/{rel}")
        # `cat >` keeps the mode of an existing file.
        write = f'mkdir -p "$(dirname {target})" && cat > {target}'
        if await self._live_channel() is not None:
            outcome = await self._run(
                ["bash", "-c", write], lambda _: None, cwd=gitstate.WORKSPACE, stdin=data
            )
            return outcome.exit_code
        # Plain docker exec has no input: the bytes are staged with an archive upload.
        staged = f"{gitstate.KILN_GIT}/.kiln-upload-{next(self._counter)}"
        await asyncio.to_thread(self._upload, staged, data)
        code, _out = await self._script(
            f"{write} < {staged}; s=$?; rm -f {staged}; exit $s", check=False
        )
        return code

    def _upload(self, name: str, data: bytes) -> None:
        engine_, container = self._need_container()
        try:
            upload(engine_, container, name, data, workspace.repo_owner(self.repo))
        except EngineNotFound:
            raise SandboxGone(
                "The sandbox container is gone; run the next command to get a fresh one."
            ) from None


def _drop(_data: bytes) -> None:
    pass
