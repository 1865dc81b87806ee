"""An attached process in a Docker sandbox: one `docker exec` with its stdin attached.

The engine's hijacked stream carries stdin one way and docker's multiplexed stdout and
stderr frames the other (sandbox/docker_exec.py's framing). A reader thread takes the
frames apart: stdout goes to an asyncio queue in pieces as they come, stderr is watched
for the launch's markers (sandbox/attached.py) and its tail kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
import threading

from sandbox.attached import AttachFailed, LaunchedProcess, launch_argv
from sandbox.docker_exec import ContainerMissing, exec_create
from sandbox.engine import EngineUnavailable
from sandbox.engine_api import Engine, EngineError, Hijacked


class DockerAttached(LaunchedProcess):
    """One process started with `docker exec -i` (sandbox/attached.py's AttachedProcess)."""

    def __init__(self, stream: Hijacked, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(loop)
        self._stream = stream
        threading.Thread(target=self._read_loop, name="kiln-attached", daemon=True).start()

    @classmethod
    async def start(
        cls, engine: Engine, container: str, argv: list[str], cwd: str
    ) -> DockerAttached:
        """Start `argv` in `container`; AttachFailed when it cannot be."""

        def started() -> Hijacked:
            exec_id = exec_create(engine, container, launch_argv(argv), stdin=True, workdir=cwd)
            return engine.exec_start(exec_id)

        try:
            stream = await asyncio.to_thread(started)
        except ContainerMissing:
            raise AttachFailed("the sandbox's container is gone") from None
        except (EngineError, EngineUnavailable) as exc:
            raise AttachFailed(f"the Docker engine refused: {exc}") from None
        return cls(stream, asyncio.get_running_loop())

    async def _write(self, data: bytes) -> None:
        try:
            await asyncio.to_thread(self._stream.sendall, data)
        except OSError as exc:
            raise ConnectionError(str(exc)) from None

    async def close(self) -> None:
        with contextlib.suppress(OSError):
            self._stream.shutdown(socket.SHUT_WR)  # its stdin ends: the server exits
        with contextlib.suppress(OSError):
            self._stream.close()

    async def kill(self) -> None:
        # An exec cannot be signalled through the engine: its input ends, and it ends with
        # that or with the sandbox.
        await self.close()

    # -- the reader thread -----------------------------------------------------------
    def _read_loop(self) -> None:
        try:
            while True:
                header = self._read_exact(8)
                if header is None:
                    return
                kind, size = struct.unpack(">BxxxL", header)
                left = size
                while left > 0:
                    piece = self._stream.recv(min(left, 65536))
                    if not piece:
                        return
                    left -= len(piece)
                    if kind == 1:
                        self._deliver(piece)
                    else:
                        self._watch_stderr(piece)
        except OSError:
            return
        finally:
            self._ended = True
            self._deliver(b"")

    def _read_exact(self, n: int) -> bytes | None:
        chunks: list[bytes] = []
        while n > 0:
            data = self._stream.recv(n)
            if not data:
                return None
            chunks.append(data)
            n -= len(data)
        return b"".join(chunks)
