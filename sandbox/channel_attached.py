"""An attached process started by the in-container command server (sandbox/exec_server.py):
one request whose input stays open, instead of a `docker exec` of its own.

A `docker exec` costs the engine, containerd and runc a round trip and a process setup
each; the server already runs in the container and forks the process itself. Its stdout
comes back as the request's output frames, in pieces as they come, its stderr is watched
for the launch's markers (sandbox/attached.py), and its input goes out as `feed` frames.
It ends when its input does (a well-behaved server exits), when it is killed, or with the
server. It descends from the server, not from a command, so the sweep after a command
leaves it alone; what it leaves running when it ends is killed with it.
"""

from __future__ import annotations

import asyncio
import contextlib

from sandbox.attached import LaunchWatch, launch_argv
from sandbox.exec_channel import ChannelClosed, Ended, ExecChannel


class ChannelAttached:
    """One process started through the command server (sandbox/attached.py's AttachedProcess)."""

    def __init__(self, channel: ExecChannel, loop: asyncio.AbstractEventLoop) -> None:
        self._channel = channel
        self._loop = loop
        self._rid = 0
        self._out: asyncio.Queue[bytes] = asyncio.Queue()
        self._said = LaunchWatch()
        self._send_lock = asyncio.Lock()
        self._ended = False

    @classmethod
    async def start(cls, channel: ExecChannel, argv: list[str], cwd: str) -> ChannelAttached:
        """Start `argv` through `channel`; ChannelClosed when the server went away first."""
        process = cls(channel, asyncio.get_running_loop())
        process._rid, ended = await channel.attach(
            launch_argv(argv), process._deliver, process._said.add, cwd=cwd
        )
        ended.add_done_callback(process._on_end)
        return process

    @property
    def pid(self) -> int | None:
        return self._said.pid

    @property
    def missing(self) -> bool:
        return self._said.missing

    @property
    def stderr_tail(self) -> str:
        return self._said.tail

    async def send(self, data: bytes) -> None:
        if self._ended:
            raise ConnectionError("the process has ended")
        async with self._send_lock:  # in order: a big piece goes out from a thread
            try:
                await self._channel.feed(self._rid, data)
            except ChannelClosed:
                raise ConnectionError("the sandbox's command server has gone") from None

    async def receive(self) -> bytes:
        if self._ended and self._out.empty():
            return b""
        return await self._out.get()

    async def close(self) -> None:
        self._channel.end_input(self._rid)

    async def kill(self) -> None:
        self._channel.kill(self._rid)  # its whole session; its end is not told
        if not self._ended:
            self._ended = True
            self._out.put_nowait(b"")

    def _deliver(self, data: bytes) -> None:  # in the channel's reader thread
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            self._loop.call_soon_threadsafe(self._out.put_nowait, data)

    def _on_end(self, ended: asyncio.Future[Ended]) -> None:
        """Its end, after all its output (both come through the loop in order)."""
        if not ended.cancelled() and ended.exception() is None and ended.result().code is None:
            self._said.add(b"\nthe sandbox's command server went away\n")
        self._ended = True
        self._out.put_nowait(b"")
