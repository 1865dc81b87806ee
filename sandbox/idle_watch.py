"""The disk limit between commands: a watcher that runs for the whole session.

While a command runs, sandbox/quota.py's `watched` measures the state dir and stops the
command past the limit. Between commands nothing of the model's should run at all (what a
command leaves behind is killed when it ends, sandbox/strays.py), but should something
still write, say a process that escaped at the very moment its command ended, this
watcher measures the same state dir every so often while no command runs and, once it has
grown past the limit, kills what runs in the background and leaves a sentence for the
next command's output.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from sandbox.quota import scan
from sandbox.strays import idle_disk_sentence

# Idle, the sandbox is measured at most once a second and never spending more than a
# twentieth of the time walking the tree.
_MIN_INTERVAL_S = 1.0
_WALK_SHARE = 0.05


class IdleDiskWatch:
    def __init__(
        self,
        root_of: Callable[[], Path | None],
        limit: int,
        limit_text: str,
        busy: Callable[[], bool],
        stop_strays: Callable[[], Awaitable[int]],
    ) -> None:
        self._root_of = root_of  # the state dir, or None once the sandbox closed
        self._limit = limit
        self._limit_text = limit_text
        self._busy = busy
        self._stop_strays = stop_strays
        self.settled = 0  # usage when the last command ended: only growth since counts
        self.pending: list[str] = []  # sentences for the next command's output
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.ensure_future(self._watch())

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    def take_pending(self) -> list[str]:
        pending, self.pending = self.pending, []
        return pending

    async def _watch(self) -> None:
        interval = _MIN_INTERVAL_S
        while True:
            await asyncio.sleep(interval)
            root = self._root_of()
            if root is None:
                return
            if self._busy():  # a running command has its own watch
                continue
            began = time.monotonic()
            used = (await asyncio.to_thread(scan, root)).used
            interval = max(_MIN_INTERVAL_S, (time.monotonic() - began) / _WALK_SHARE)
            if used <= self._limit or used <= self.settled:
                continue
            try:
                killed = await self._stop_strays()
            except Exception:  # the container went away: the next command says so
                continue
            if killed:
                self.pending.append(idle_disk_sentence(used, self._limit_text, killed))
            self.settled = used
