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

from sandbox.attached import LaunchedProcess, launch_argv
from sandbox.exec_channel import ChannelClosed, Ended, ExecChannel


class ChannelAttached(LaunchedProcess):
    """One process started through the command server (sandbox/attached.py's AttachedProcess)."""

    def __init__(self, channel: ExecChannel, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(loop)
        self._channel = channel
        self._rid = 0

    @classmethod
    async def start(cls, channel: ExecChannel, argv: list[str], cwd: str) -> ChannelAttached:
        """Start `argv` through `channel`; ChannelClosed when the server went away first."""
        process = cls(channel, asyncio.get_running_loop())
        process._rid, ended = await channel.attach(
            launch_argv(argv), process._deliver, process._watch_stderr, cwd=cwd
        )
        ended.add_done_callback(process._on_end)
        return process

    async def _write(self, data: bytes) -> None:
        try:
            await self._channel.feed(self._rid, data)
        except ChannelClosed:
            raise ConnectionError("the sandbox's command server has gone") from None

    async def close(self) -> None:
        self._channel.end_input(self._rid)

    async def kill(self) -> None:
        self._channel.kill(self._rid)  # its whole session; its end is not told
        if not self._ended:
            self._ended = True
            self._out.put_nowait(b"")

    def _on_end(self, ended: asyncio.Future[Ended]) -> None:
        """Its end, after all its output (both come through the loop in order)."""
        if not ended.cancelled() and ended.exception() is None and ended.result().code is None:
            self._watch_stderr(b"\nthe sandbox's command server went away\n")
        self._ended = True
        self._out.put_nowait(b"")
