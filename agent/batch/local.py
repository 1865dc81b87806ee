"""The local engine: every task a coroutine in the driver's own event loop, on this machine's
sandbox engine. The sessions share one store connection (one writer, no lock waits)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from agent.batch.execute import BatchOptions, Outcome, execute
from agent.batch.tasks import TaskSpec

if TYPE_CHECKING:
    from agent.store.db import Store


class LocalEngine:
    name = "local"

    def __init__(self, options: BatchOptions, jobs: int) -> None:
        self.options = options
        self.capacity = jobs
        self._store: Store | None = None

    def start(
        self, spec: TaskSpec, attempt: int, on_cost: Callable[[float], None]
    ) -> asyncio.Future[Outcome]:
        if self._store is None:
            from agent.store.db import Store

            self._store = Store()
        return asyncio.ensure_future(
            execute(spec, self.options, attempt, store=self._store, on_cost=on_cost)
        )

    def cancel(self, running: asyncio.Future[Outcome]) -> None:
        """The task's session closes on its way out: its container goes with it."""
        running.cancel()

    async def close(self) -> None:
        if self._store is not None:
            self._store.close()
