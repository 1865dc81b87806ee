"""The Docker backend's services (sandbox/services.py), run by its command server: each
started as a request that ends when it does, its output kept by the server in a log of
bounded size, read and stopped with requests of their own (sandbox/exec_server.py)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Awaitable, Callable

from sandbox.base import SandboxError
from sandbox.exec_channel import ChannelClosed, Ended, ExecChannel
from sandbox.services import (
    EXITED,
    LAST_OUTPUT,
    LOG_KEEP,
    LOST,
    NO_JOBS,
    READ_MOST,
    SERVICES,
    Service,
    ServiceOutput,
)


class ServiceTable:
    """The services of one Docker sandbox, run by its command server."""

    def __init__(self, channel: Callable[[], Awaitable[ExecChannel | None]]) -> None:
        self._channel = channel  # the live command server, started when needed
        self.services: dict[str, Service] = {}
        self._ids = itertools.count(1)
        self._requests: dict[str, tuple[ExecChannel, int]] = {}
        self._ends: dict[str, asyncio.Future[None]] = {}
        self.ending: dict[str, str] = {}  # id -> how it is being stopped
        self.on_end: Callable[[Service], None] = _nothing

    async def start(
        self, command: str, kind: str, cwd: str, env: dict[str, str] | None = None
    ) -> Service:
        channel = await self._channel()
        if channel is None:
            raise SandboxError(NO_JOBS)
        sid = str(next(self._ids))
        service = Service(sid, kind, command, time.time(), f"{SERVICES}/{kind}-{sid}.log")
        try:
            rid, ended = channel.start_service(
                ["bash", "-c", command], cwd=cwd, env=env or {}, log=service.log, keep=LOG_KEEP
            )
        except ChannelClosed:
            raise SandboxError("The sandbox's command server went away; try again.") from None
        self.services[sid] = service
        self._requests[sid] = (channel, rid)
        self._ends[sid] = asyncio.ensure_future(self._wait_end(service, ended))
        return service

    async def _wait_end(self, service: Service, ended: asyncio.Future[Ended]) -> None:
        try:
            how = await ended
        except ChannelClosed:  # the server died before it took the request
            how = Ended(None)
        service.exit_code = how.code
        service.ended = time.time()
        service.ended_by = self.ending.pop(service.id, EXITED if how.code is not None else LOST)
        with contextlib.suppress(Exception):  # what it said last, for whoever is told
            service.last_output = (await self.read(service, 0, LAST_OUTPUT)).text
        self.on_end(service)

    def get(self, sid: str) -> Service:
        service = self.services.get(sid.strip().removeprefix("#"))
        if service is None:
            known = ", ".join(self.services) or "none started yet"
            raise SandboxError(f"There is no job {sid!r} (jobs: {known}); give one of their ids.")
        return service

    async def read(self, service: Service, since: int, most: int = READ_MOST) -> ServiceOutput:
        """Its output from `since` on (the newest `most` bytes of it at most); its ports
        and total are brought up to date on the way."""
        request = self._requests.get(service.id)
        if request is None:
            return ServiceOutput("", since, 0, since)
        channel, rid = request
        try:
            code, data, line = await channel.peek(rid, since, most)
        except ChannelClosed:
            code = None
        if code != 0:
            return ServiceOutput("", since, 0, since)
        start, total, running, ports = _peeked(line)
        service.total = max(service.total, total)
        if running:
            service.ports = ports
        text = data.decode("utf-8", "replace")
        return ServiceOutput(text, start, max(0, start - since), start + len(data))

    async def stop(self, service: Service, how: str) -> Service:
        """TERM it, KILL it a second later; returns once it ended."""
        request = self._requests.get(service.id)
        if service.running and request is not None:
            self.ending.setdefault(service.id, how)
            request[0].stop_service(request[1])
            with contextlib.suppress(TimeoutError):  # the server went away meanwhile
                await asyncio.wait_for(asyncio.shield(self._ends[service.id]), 10)
        return service

    async def stop_all(self, how: str) -> list[Service]:
        """Every service still running stopped; which they were."""
        running = [s for s in self.services.values() if s.running]
        await asyncio.gather(*(self.stop(s, how) for s in running))
        return running


def _peeked(line: bytes) -> tuple[int, int, bool, tuple[int, ...]]:
    """The server's line about a read: offset, total, running, ports (comma-separated).
    Read as numbers only, bounded: it comes out of the container."""
    fields = line.decode("ascii", "replace").split()
    try:
        start, total, running = (int(f) for f in fields[:3])
        ports = tuple(int(p) for p in fields[3].split(",")[:32]) if len(fields) > 3 else ()
    except ValueError:
        return 0, 0, False, ()
    return start, total, bool(running), ports


def _nothing(_service: Service) -> None:
    pass
