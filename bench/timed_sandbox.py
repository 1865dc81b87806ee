"""A Sandbox wrapper that records when each call was inside the sandbox, for the benchmarks."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from sandbox.base import PROBE_TIMEOUT_S, ExecResult, Sandbox

T = TypeVar("T")


class TimedSandbox:
    def __init__(self, inner: Sandbox) -> None:
        self.inner = inner
        self.repo: Path = inner.repo
        self.intervals: list[tuple[float, float]] = []
        self.by_call: dict[str, float] = {}

    def __getattr__(self, name: str) -> Any:  # `baseline` and other backend extras
        return getattr(self.inner, name)

    def __setattr__(self, name: str, value: Any) -> None:
        # What the caller hands the sandbox for its start is the backend's to call.
        if name in ("progress", "waiting"):
            setattr(self.inner, name, value)
        else:
            super().__setattr__(name, value)

    async def _timed(self, name: str, work: Callable[[], Awaitable[T]]) -> T:
        started = time.perf_counter()
        try:
            return await work()
        finally:
            stopped = time.perf_counter()
            self.intervals.append((started, stopped))
            self.by_call[name] = self.by_call.get(name, 0.0) + stopped - started

    def busy_s(self) -> float:
        """Wall time with at least one call in flight (overlapping calls count once)."""
        total, end = 0.0, float("-inf")
        for start, stop in sorted(self.intervals):
            if start > end:
                total += stop - start
                end = stop
            elif stop > end:
                total += stop - end
                end = stop
        return total

    async def start(self) -> None:
        await self._timed("start", self.inner.start)

    async def exec(
        self, cmd: str, *, timeout: float | None = None, cwd: str | None = None
    ) -> ExecResult:
        return await self._timed("exec", lambda: self.inner.exec(cmd, timeout=timeout, cwd=cwd))

    async def probe(self, script: str, *, timeout: float = PROBE_TIMEOUT_S) -> tuple[int, str]:
        return await self._timed("probe", lambda: self.inner.probe(script, timeout=timeout))

    async def read_file(self, path: str) -> bytes:
        return await self._timed("read_file", lambda: self.inner.read_file(path))

    async def write_file(self, path: str, data: bytes) -> None:
        await self._timed("write_file", lambda: self.inner.write_file(path, data))

    async def diff(self) -> str:
        return await self._timed("diff", self.inner.diff)

    async def changed_files(self) -> list[str]:
        return await self._timed("changed_files", self.inner.changed_files)

    async def rebaseline(self) -> None:
        await self._timed("rebaseline", self.inner.rebaseline)

    async def checkpoint(self, label: str) -> str:
        return await self._timed("checkpoint", lambda: self.inner.checkpoint(label))

    async def restore(self, ref: str) -> None:
        await self._timed("restore", lambda: self.inner.restore(ref))

    async def close(self) -> None:
        await self._timed("close", self.inner.close)
