"""kiln's end of the in-container command server (sandbox/exec_server.py).

The server starts with the container, on the main process's attached stdin and stdout
(see LAUNCH), or, should it die, again with one `docker exec` attached the same way;
after that every command is one request frame out and a few frames back, with no engine
round trip. A reader thread demultiplexes the frames: output goes straight to each command's
sinks (bounded pieces, so memory stays flat), the exit status resolves its future.

If the server cannot start (an image without python3) the backend keeps using plain
`docker exec`; if it dies (a command killed it, or the container went away) every
pending command learns it at once and the backend starts a new one when next needed.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import marshal
import socket
import struct
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from sandbox.base import Sink
from sandbox.container_spec import ENDED_MARKER, NO_PYTHON_MARKER, SERVER_ARGV, server_source
from sandbox.docker_exec import exec_create
from sandbox.engine_api import Engine, Hijacked
from sandbox.frozen import frozen

OUT, ERR, EXIT, TAKEN, READY = 1, 2, 3, 4, 5
_HANDSHAKE = b"kiln-exec 1"
# marshal's format 4 (Python 3.4+): a newer kiln must not write what the container's older
# python3 cannot read.
MARSHAL_VERSION = 4
FILE_DEADLINE_S = 600  # a file read or written by the server: as long as kiln's own scripts
RECV_BYTES = 65536  # one read of the engine's stream, at most
T = TypeVar("T")


class ChannelClosed(Exception):
    """The server's connection is gone; nothing more can be sent on it."""


class NoServer(Exception):
    """The container says the server cannot run (no python3) or has ended."""


@frozen
class Ended:
    """How a request ended, as the server tells it."""

    code: int | None  # None: the connection died, or kiln gave up waiting (deadline_hit)
    deadline_hit: bool = False
    strays: int = 0  # processes the command left behind, which the server killed
    oom_kills: int = -1  # the container's OOM kills so far; -1: unknown


@dataclass(eq=False, repr=False)  # state, compared and shown by identity
class _Job:
    """One request sent to the server: where its output goes and the future its end resolves."""

    out: Sink
    err: Sink
    future: asyncio.Future[Ended]
    loop: asyncio.AbstractEventLoop
    taken: bool = False  # the server read it: it may have run, so it is never resent
    on_taken: asyncio.Future[None] | None = None  # resolved when it is (ChannelClosed: never)


class ExecChannel:
    def __init__(self, stream: Hijacked) -> None:
        self._sock = stream
        self._stream = _DockerStream(stream)
        self._jobs: dict[int, _Job] = {}
        self._ids = itertools.count(1)
        self._send_lock = threading.Lock()
        self.alive = True
        # The network interfaces the server saw as it started (its ready message); None:
        # it could not tell.
        self.interfaces: tuple[str, ...] | None = None

    @classmethod
    def open(cls, engine: Engine, container: str, timeout: float = 10.0) -> ExecChannel | None:
        """Start the server in a running container with one exec; None when it cannot run
        there (no python3). Raises ContainerMissing when the container is gone."""
        exec_id = exec_create(
            engine, container, [*SERVER_ARGV, server_source()], stdin=True, workdir="/"
        )
        return cls.connect(engine.exec_start(exec_id), timeout)

    @classmethod
    def connect(cls, stream: Hijacked, timeout: float = 10.0) -> ExecChannel | None:
        """Talk to a server on `stream` once it says it is ready; None if it never does."""
        channel = cls(stream)
        if not channel._handshake(timeout):
            channel.close()
            return None
        threading.Thread(target=channel._read_loop, name="kiln-exec-reader", daemon=True).start()
        return channel

    def _handshake(self, timeout: float) -> bool:
        self._sock.settimeout(timeout)
        try:
            header = self._stream.read_exact(9)
            if header is None:
                return False
            _rid, kind, size = struct.unpack(">IBI", header)
            said = self._stream.read_exact(size) if kind == READY else None
            if said is None or said.split(b"\n")[0] != _HANDSHAKE:
                return False
            names = tuple(said.decode(errors="replace").split("\n")[1:])
            self.interfaces = None if names == ("?",) else names
            return True
        except (OSError, NoServer):  # OSError includes the timeout
            return False
        finally:
            with contextlib.suppress(OSError):
                self._sock.settimeout(None)

    # -- requests --------------------------------------------------------------------
    async def run(
        self,
        argv: list[str],
        out: Sink,
        err: Sink,
        *,
        cwd: str,
        env: dict[str, str] | None,
        stdin: bytes | None,
        deadline_s: float | None,
        sweep: bool = False,
        limit: float | None = None,
    ) -> Ended:
        """How it ended; with `sweep`, the processes it left behind are killed first. With
        `limit`, argv is a command the server runs as kiln's wrapper would (no input,
        stderr joined to stdout, stopped after `limit` seconds with exit 124, what it
        left in its session killed at its end; sandbox/exec_server.py)."""
        request = {
            "argv": argv,
            "cwd": cwd,
            "env": env or {},
            "stdin": stdin,
            "limit": limit,
            "sweep": sweep,
        }
        return await self._ask(request, out, err, deadline_s)

    async def read(self, path: str) -> tuple[int | None, bytes]:
        """A file's bytes, read by the server itself (no process to start): exit 0 and
        them, 44 when it cannot be read, None when the server went away."""
        chunks: list[bytes] = []
        ended = await self._ask({"read": path}, chunks.append, _drop, FILE_DEADLINE_S)
        return ended.code, b"".join(chunks)

    async def write(self, path: str, data: bytes) -> tuple[int | None, str]:
        """Write a file (and its folders) as `mkdir -p` and `cat >` would, in the server
        itself: exit 0, or 1 and why, or None when the server went away."""
        errors: list[bytes] = []
        request = {"write": path, "stdin": data}
        ended = await self._ask(request, _drop, errors.append, FILE_DEADLINE_S)
        return ended.code, b"".join(errors).decode("utf-8", "replace").strip()

    def start_service(
        self, argv: list[str], *, cwd: str, env: dict[str, str], log: str, keep: int
    ) -> tuple[int, asyncio.Future[Ended]]:
        """Start a service (a job): it runs until it exits or is stopped, its output kept
        in `log` inside the container, its last `keep` bytes at most. Its request id, and
        the future its end resolves (ChannelClosed: it never started)."""
        request = {
            "argv": argv, "cwd": cwd, "env": env, "stdin": None, "limit": None,
            "sweep": True, "service": log, "keep": keep,
        }  # fmt: skip
        return self._submit(request, _drop, _drop)

    async def attach(
        self, argv: list[str], out: Sink, err: Sink, *, cwd: str
    ) -> tuple[int, asyncio.Future[Ended]]:
        """Start an attached process: its input open until `end_input`, its stdout and
        stderr to `out` and `err` as they come (in the reader thread). Its request id and
        the future its end resolves, once the server has taken it; ChannelClosed when the
        server went away before it did (nothing started)."""
        request: dict[str, object] = {"argv": argv, "cwd": cwd, "attach": True}
        loop = asyncio.get_running_loop()
        taken = loop.create_future()
        rid, future = self._submit(request, out, err, taken)
        try:
            await taken
        except ChannelClosed:
            raise
        except BaseException:  # cancelled: what the server may have started is killed
            self.kill(rid)
            raise
        return rid, future

    async def feed(self, rid: int, data: bytes) -> None:
        """More input for attached process `rid`, after what was fed before;
        ChannelClosed when the server is gone."""
        frame = _frame({"feed": rid, "data": data})
        if len(frame) > 65536:  # a big document must not block the event loop
            await asyncio.to_thread(self._send, frame)
        else:
            self._send(frame)

    def end_input(self, rid: int) -> None:
        """Attached process `rid`'s input ends once what was fed is written."""
        with contextlib.suppress(ChannelClosed):
            self._send(_frame({"eof": rid}))

    def stop_service(self, rid: int) -> None:
        """TERM service `rid`'s process group, KILL it a second later; its future says
        when it ended."""
        with contextlib.suppress(ChannelClosed):
            self._send(_frame({"stop": rid}))

    async def peek(self, rid: int, since: int, most: int) -> tuple[int | None, bytes, bytes]:
        """Service `rid`'s output from `since` (its last `most` bytes at most): exit 0, the
        bytes, and the server's line about them (offset, total, running, ports); 44 when
        there is no such service, None when the server went away."""
        data: list[bytes] = []
        line: list[bytes] = []
        request = {"peek": rid, "since": since, "most": most}
        ended = await self._ask(request, data.append, line.append, FILE_DEADLINE_S)
        return ended.code, b"".join(data), b"".join(line)[:4096]

    def _submit(
        self,
        request: Mapping[str, object],
        out: Sink,
        err: Sink,
        on_taken: asyncio.Future[None] | None = None,
    ) -> tuple[int, asyncio.Future[Ended]]:
        loop = asyncio.get_running_loop()
        rid = next(self._ids)
        job = _Job(out, err, loop.create_future(), loop, on_taken=on_taken)
        self._jobs[rid] = job
        try:
            self._send(_frame({"id": rid, **request}))
        except ChannelClosed:
            self._jobs.pop(rid, None)
            raise
        return rid, job.future

    async def _ask(
        self, request: Mapping[str, object], out: Sink, err: Sink, deadline_s: float | None
    ) -> Ended:
        loop = asyncio.get_running_loop()
        rid = next(self._ids)
        job = _Job(out, err, loop.create_future(), loop)
        self._jobs[rid] = job
        frame = _frame({"id": rid, **request})
        try:
            if len(frame) > 65536:  # a big upload must not block the event loop
                await asyncio.to_thread(self._send, frame)
            else:
                self._send(frame)
            return await asyncio.wait_for(asyncio.shield(job.future), deadline_s)
        except TimeoutError:
            self.kill(rid)
            return Ended(None, deadline_hit=True)
        except BaseException:  # cancelled (Esc, wall clock) or the send failed: stop it
            self.kill(rid)
            raise

    def kill(self, rid: int) -> None:
        """Kill request `rid`'s whole process group; its late output is dropped."""
        if self._jobs.pop(rid, None) is not None:
            with contextlib.suppress(ChannelClosed):
                self._send(_frame({"kill": rid}))

    def _send(self, line: bytes) -> None:
        if not self.alive:
            raise ChannelClosed()
        try:
            with self._send_lock:
                self._sock.sendall(line)
        except OSError:
            self.alive = False
            raise ChannelClosed() from None

    def close(self) -> None:
        self.alive = False
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            self._sock.close()

    # -- the reader thread -----------------------------------------------------------
    def _read_loop(self) -> None:
        try:
            while True:
                header = self._stream.read_exact(9)
                if header is None:
                    return
                rid, kind, size = struct.unpack(">IBI", header)
                if kind == TAKEN:
                    job = self._jobs.get(rid)
                    if job is not None:
                        job.taken = True
                        if job.on_taken is not None:
                            _later(job.loop, _resolve, job.on_taken, None)
                elif kind == EXIT:
                    status = self._stream.read_exact(size)
                    if status is None:
                        return
                    self._finish(rid, _ended(status))
                elif not self._forward(rid, kind, size):
                    return
        except (OSError, NoServer):
            return
        finally:
            self.alive = False
            for rid in list(self._jobs):
                self._finish(rid, None)

    def _forward(self, rid: int, kind: int, size: int) -> bool:
        job = self._jobs.get(rid)
        while size > 0:
            piece = self._stream.read(min(size, 65536))
            if not piece:
                return False
            size -= len(piece)
            if job is not None and kind in (OUT, ERR):
                # A sink that fails (disk full) must not stop the reader.
                with contextlib.suppress(Exception):
                    (job.out if kind == OUT else job.err)(piece)
        return True

    def _finish(self, rid: int, ended: Ended | None) -> None:
        """Resolve a request: how it ended, or (code None) the server died after taking
        it; one it never took fails with ChannelClosed, so it is sent again elsewhere."""
        job = self._jobs.pop(rid, None)
        if job is not None:
            outcome: Ended | ChannelClosed = (
                ended if ended is not None else Ended(None) if job.taken else ChannelClosed()
            )
            if job.on_taken is not None and not job.taken:
                _later(job.loop, _resolve, job.on_taken, ChannelClosed())
            _later(job.loop, _resolve, job.future, outcome)


def _frame(request: dict[str, object]) -> bytes:
    """A request as the server reads it: its length, then marshal's bytes (the server
    imports nothing to read them; only the server, never kiln, unmarshals)."""
    payload = marshal.dumps(request, MARSHAL_VERSION)
    return len(payload).to_bytes(4, "big") + payload


def _drop(_data: bytes) -> None:
    pass


def _ended(status: bytes) -> Ended:
    code, strays, oom_kills = struct.unpack(">iIi", status[:12].ljust(12, b"\0"))
    return Ended(code, strays=strays, oom_kills=oom_kills if len(status) >= 12 else -1)


def _resolve(future: asyncio.Future[T], outcome: T | ChannelClosed) -> None:
    if future.done():
        return
    if isinstance(outcome, ChannelClosed):
        future.set_exception(outcome)
    else:
        future.set_result(outcome)


def _later(loop: asyncio.AbstractEventLoop, call: Callable[..., None], *args: object) -> None:
    """`call(*args)` on `loop`, from the reader thread."""
    with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
        loop.call_soon_threadsafe(call, *args)


class _DockerStream:
    """The server's stdout out of docker's multiplexed stream; its stderr is only watched
    for the launch script's markers (and a little kept for diagnosis)."""

    def __init__(self, sock: Hijacked) -> None:
        self._sock = sock
        self._left = 0  # bytes left in the current stdout frame
        # What the socket gave beyond what was asked: one recv takes a reply's headers and
        # payloads together, where a recv per header and payload would cost a system call
        # and a wait for the interpreter's lock each.
        self._buffer = bytearray()
        self.stderr = bytearray()
        self._stderr_tail = b""

    def read(self, n: int) -> bytes:
        """Up to n bytes of stdout; b"" at the end of the stream."""
        while self._left == 0:
            header = self._recv_exact(8)
            if header is None:
                return b""
            kind, size = struct.unpack(">BxxxL", header)
            if kind == 1:
                self._left = size
                continue
            data = self._recv_exact(size)
            if data is None:
                return b""
            self._watch_stderr(data)
        if not self._buffer and not self._fill(1):
            return b""
        data = self._take(min(n, self._left, len(self._buffer)))
        self._left -= len(data)
        return data

    def _watch_stderr(self, data: bytes) -> None:
        self.stderr += data[: max(0, 4096 - len(self.stderr))]
        window = self._stderr_tail + data
        self._stderr_tail = window[-32:]
        if NO_PYTHON_MARKER in window or ENDED_MARKER in window:
            raise NoServer()

    def read_exact(self, n: int) -> bytes | None:
        chunks = []
        while n > 0:
            data = self.read(n)
            if not data:
                return None
            chunks.append(data)
            n -= len(data)
        return b"".join(chunks)

    def _recv_exact(self, n: int) -> bytes | None:
        return self._take(n) if self._fill(n) else None

    def _fill(self, n: int) -> bool:
        """At least n bytes in the buffer; False when the stream ends first."""
        while len(self._buffer) < n:
            data = self._sock.recv(max(RECV_BYTES, n - len(self._buffer)))
            if not data:
                return False
            self._buffer += data
        return True

    def _take(self, n: int) -> bytes:
        data = bytes(self._buffer[:n])
        del self._buffer[:n]
        return data
