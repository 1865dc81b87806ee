"""A long-lived process inside a sandbox that kiln talks to on its stdin and stdout (a
language server): the protocol, light to import, apart from the Docker backend's own.

The process runs beside the commands, under the sandbox's memory, CPU and pid limits, and
sees what they see (the workspace, the image's tools, the setup's venv and node_modules).
It is no stray (sandbox/strays.py): it descends from the command server (or, without one,
from a `docker exec`), not from a command, so the sweep after each command leaves it alone;
it ends when kiln closes it (its stdin closes), kills it, or with the sandbox.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Protocol, runtime_checkable

# The first line a started process says on stderr (its pid inside the sandbox), and the one
# it says instead when its command is not there: how kiln tells "missing" from "crashed".
PID_MARKER = "kiln-attached-pid"
MISSING_MARKER = "kiln-attached-missing"
MISSING_EXIT = 127
# It runs at the lowest priority: it works in the background of the run (a server's start,
# its checks), and the commands the run waits for (the tests) go first on the sandbox's
# CPUs; it has them whenever those are idle (while the model is asked). At niceness 10 a
# language server's start beside a short run's tests still took about 7 ms from the run.
NICENESS = 19
LAUNCH = (
    f'command -v "$0" >/dev/null 2>&1 || {{ echo {MISSING_MARKER} >&2; exit {MISSING_EXIT}; }}; '
    f'echo "{PID_MARKER} $$" >&2; '
    f'command -v nice >/dev/null 2>&1 && exec nice -n {NICENESS} "$0" "$@"; '
    'exec "$0" "$@"'
)


STDERR_KEPT = 4096
_PID_LINE = re.compile(rf"{PID_MARKER} (\d+)\n".encode())


def launch_argv(argv: list[str]) -> list[str]:
    """`argv` behind a shell that says its pid (or that the command is missing) first."""
    return ["sh", "-c", LAUNCH, *argv]


class LaunchedProcess:
    """What both ways of starting a process with `launch_argv` share (the command server's,
    sandbox/channel_attached.py; a `docker exec`, sandbox/docker_attached.py): its stderr
    read for the launch's markers (its pid, or that it is missing) and its last few KB
    kept, its stdout handed to the loop in pieces from a reader thread, its input sent in
    order. A subclass writes the input (`_write`) and closes or kills the process."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._out: asyncio.Queue[bytes] = asyncio.Queue()
        self._send_lock = asyncio.Lock()
        self._ended = False
        self._pid: int | None = None
        self._missing = False
        self._stderr = bytearray()

    @property
    def pid(self) -> int | None:
        return self._pid

    @property
    def missing(self) -> bool:
        return self._missing

    @property
    def stderr_tail(self) -> str:
        return self._stderr.decode("utf-8", "replace")

    async def send(self, data: bytes) -> None:
        if self._ended:
            raise ConnectionError("the process has ended")
        async with self._send_lock:  # in order, and never blocking the loop on a full pipe
            await self._write(data)

    async def _write(self, data: bytes) -> None:
        raise NotImplementedError

    async def receive(self) -> bytes:
        if self._ended and self._out.empty():
            return b""
        return await self._out.get()

    def _deliver(self, data: bytes) -> None:
        """A piece of its stdout (b"": its end), from a reader thread."""
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            self._loop.call_soon_threadsafe(self._out.put_nowait, data)

    def _watch_stderr(self, data: bytes) -> None:
        self._stderr += data
        if self._pid is None and not self._missing:
            found = _PID_LINE.search(self._stderr)
            if found:
                self._pid = int(found.group(1))
                del self._stderr[: found.end()]
            elif MISSING_MARKER.encode() in self._stderr:
                self._missing = True
        del self._stderr[:-STDERR_KEPT]


class AttachFailed(Exception):
    """The process could not be started: the container is gone, or the engine refused."""


class AttachedProcess(Protocol):
    """One process with its stdin and stdout held by kiln."""

    @property
    def pid(self) -> int | None:
        """Its pid inside the sandbox, once it said it; None before, or when it is missing."""
        ...

    @property
    def missing(self) -> bool:
        """Its command is not in the sandbox (it never started)."""
        ...

    @property
    def stderr_tail(self) -> str:
        """The last few KB it wrote on stderr, for saying why it ended."""
        ...

    async def send(self, data: bytes) -> None:
        """Write to its stdin; raises ConnectionError once it has ended."""
        ...

    async def receive(self) -> bytes:
        """The next piece of its stdout; b"" once it has ended."""
        ...

    async def close(self) -> None:
        """Close its stdin (a well-behaved server exits) and let go of it."""
        ...

    async def kill(self) -> None:
        """End it now, started or still starting, and let go of it: what it would say
        next reaches no one."""
        ...


@runtime_checkable
class Attaching(Protocol):
    """A sandbox that can start attached processes (the Docker backend; bubblewrap runs
    the host's own binaries, so kiln starts none there)."""

    async def attach(self, argv: list[str], *, cwd: str) -> AttachedProcess:
        """Start `argv` in the sandbox with `cwd` (inside it) as its working directory;
        AttachFailed when it cannot be."""
        ...
