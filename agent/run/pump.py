"""Run one piece of work (a model request, a tool call) while its events stream out.

The loop is an async generator, so work that emits events while it runs (streamed text,
approval requests) runs as a task feeding a queue the generator drains. The same place
makes cancellation real: Esc or the wall clock cancels the task, which cancels the HTTP
request or the sandbox command underneath.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Generic, TypeVar

from agent.events import Event

T = TypeVar("T")
Emit = Callable[[Event], None]


class Cancelled(Exception):
    """The person cancelled the current request."""


class DeadlinePassed(Exception):
    """The run's wall-clock limit passed while work was in flight."""


class Pump(Generic[T]):
    def __init__(
        self,
        work: Callable[[Emit], Awaitable[T]],
        cancel: asyncio.Event,
        deadline: float | None = None,  # time.monotonic() value, or None
    ) -> None:
        self._work = work
        self._cancel = cancel
        self._deadline = deadline
        self._result: T | None = None

    @property
    def result(self) -> T:
        return self._result  # type: ignore[return-value]

    async def events(self) -> AsyncIterator[Event]:
        """Yield the work's events; afterwards `result` holds its return value.

        Raises what the work raised, Cancelled, or DeadlinePassed.
        """
        queue: asyncio.Queue[Event] = asyncio.Queue()
        task = asyncio.ensure_future(self._work(queue.put_nowait))
        cancel_wait = asyncio.ensure_future(self._cancel.wait())
        try:
            while True:
                getter = asyncio.ensure_future(queue.get())
                timeout = None if self._deadline is None else self._deadline - time.monotonic()
                done, _ = await asyncio.wait(
                    {getter, task, cancel_wait},
                    timeout=max(timeout, 0) if timeout is not None else None,
                    return_when=asyncio.FIRST_COMPLETED,
                )
                if getter in done:
                    yield getter.result()
                    continue
                getter.cancel()
                if task in done:
                    while not queue.empty():
                        yield queue.get_nowait()
                    self._result = task.result()
                    return
                await _stop(task)
                raise Cancelled() if cancel_wait in done else DeadlinePassed()
        finally:
            cancel_wait.cancel()
            if not task.done():
                await _stop(task)


async def _stop(task: asyncio.Future[Any]) -> None:
    task.cancel()
    # The work's own error (or its CancelledError) does not matter once it is cancelled.
    with contextlib.suppress(BaseException):
        await task
