"""A session's events on their way to the front end: each one recorded, then sent to the
stream being read. The work behind a stream (a request, a compaction, an apply) runs as one
task, so Esc cancels exactly it; one stream at a time."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable

from agent.errors import Busy
from agent.events import Event
from agent.run.core import Emit


class EventStreams:
    def __init__(self, record: Emit) -> None:
        self._record = record  # the session's: its list of events and the store
        self._sink: Emit | None = None  # the stream being read now, if any
        self._task: asyncio.Task[object] | None = None  # the work of the stream being read
        # Emitted while no stream was read (a notice of the baseline run between requests):
        # recorded and sent first by the next stream.
        self.unsent: list[Event] = []

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def emit(self, event: Event) -> None:
        """The one sink: the event is recorded and sent to the stream being read, or waits
        for the next stream."""
        if self._sink is None:
            self.unsent.append(event)
            return
        self._record(event)
        self._sink(event)

    async def stream(self, work: Callable[[], Awaitable[object]]) -> AsyncIterator[Event]:
        """Run `work` as one task; yield every event emitted meanwhile, in order."""
        if self.running:
            raise Busy()
        queue: asyncio.Queue[Event] = asyncio.Queue()
        unsent, self.unsent = self.unsent, []
        self._sink = queue.put_nowait
        for event in unsent:
            self.emit(event)
        task = self._task = asyncio.ensure_future(work())
        try:
            while True:
                while not queue.empty():  # a burst of deltas goes out without waiting
                    yield queue.get_nowait()
                if task.done():
                    break
                getter = asyncio.ensure_future(queue.get())
                await asyncio.wait({getter, task}, return_when=asyncio.FIRST_COMPLETED)
                if getter.done():
                    yield getter.result()
                else:
                    getter.cancel()  # the work ended; what it emitted last is in the queue
            task.result()  # a bug inside surfaces here, not silently
        finally:
            self._sink = None
            if not task.done():
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task

    def cancel(self) -> None:
        """Interrupt the work of the stream being read, if any."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
