"""The batch driver: starts tasks on an engine, retries what the machinery broke, records
every finished task once, and stops as Ctrl+C asks.

Only the driver writes DIR. An infrastructure failure (the sandbox died, the model server
did not answer) is started again, up to `retries` more times; whatever the agent did
(tests still failing, a limit) is a result and never retried. The first Ctrl+C stops
starting tasks and lets the running ones finish; the second (or SIGTERM) cancels them,
and their sessions close their sandboxes. A task that did not finish is not recorded:
the next run of the same command starts it.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import traceback
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TextIO

from agent.batch.execute import Outcome, outcome_for
from agent.batch.progress import Progress
from agent.batch.results import ResultsDir
from agent.batch.tasks import TaskSpec


class Engine(Protocol):
    name: str
    capacity: int  # how many tasks run at once

    def start(
        self, spec: TaskSpec, attempt: int, on_cost: Callable[[float], None]
    ) -> asyncio.Future[Outcome]: ...

    def cancel(self, running: asyncio.Future[Outcome]) -> None: ...

    async def close(self) -> None: ...


@dataclass
class BatchRun:
    """What the driver did: the summary table and the exit code come from it."""

    total: int
    ids: list[str] = field(default_factory=list)  # the tasks of TASKS, in its order
    skipped: int = 0  # finished by an earlier run of the same command
    not_started: int = 0
    interrupted: bool = False
    budget_spent: bool = False
    retried: int = 0
    recorded: list[dict[str, Any]] = field(default_factory=list)


class Driver:
    def __init__(
        self,
        results: ResultsDir,
        engine: Engine,
        progress: Progress,
        *,
        retries: int,
        budget_usd: float,
        err: TextIO,
    ) -> None:
        self.results = results
        self.engine = engine
        self.progress = progress
        self.retries = retries
        self.budget_usd = budget_usd
        self.err = err
        self.running: dict[asyncio.Future[Outcome], tuple[TaskSpec, int]] = {}
        self.live_cost: dict[str, float] = {}
        self.presses = 0
        self.cancelled = False

    def spent(self) -> float:
        """The whole batch's cost: earlier runs' results, finished tasks, running ones."""
        recorded = sum(r.get("cost_usd") or 0.0 for r in self.results.records.values())
        return recorded + sum(self.live_cost.values())

    async def run(self, tasks: list[TaskSpec]) -> BatchRun:
        pending = deque((spec, 1) for spec in tasks if not self.results.finished(spec.id))
        batch = BatchRun(
            total=len(tasks), ids=[spec.id for spec in tasks], skipped=len(tasks) - len(pending)
        )
        self.progress.begin(batch.total, batch.skipped, self.spent())
        with self._signals():
            while pending or self.running:
                self._start_more(pending, batch)
                if not self.running:
                    break
                done, _ = await asyncio.wait(self.running, return_when=asyncio.FIRST_COMPLETED)
                for finished in done:
                    self._collect(finished, pending, batch)
        batch.not_started = len(pending)
        batch.interrupted = self.presses > 0 or self.cancelled
        return batch

    def _start_more(self, pending: deque[tuple[TaskSpec, int]], batch: BatchRun) -> None:
        while pending and len(self.running) < self.engine.capacity and not self.presses:
            if self.budget_usd and self.spent() >= self.budget_usd:
                batch.budget_spent = True
                return
            spec, attempt = pending.popleft()
            self.live_cost[spec.id] = 0.0
            on_cost = self._cost_setter(spec.id)
            self.running[self.engine.start(spec, attempt, on_cost)] = (spec, attempt)
            self.progress.started(spec.id, self.spent())

    def _cost_setter(self, task_id: str) -> Callable[[float], None]:
        def set_cost(cost: float) -> None:
            if task_id in self.live_cost:
                self.live_cost[task_id] = cost
                self.progress.cost(self.spent())

        return set_cost

    def _collect(
        self,
        finished: asyncio.Future[Outcome],
        pending: deque[tuple[TaskSpec, int]],
        batch: BatchRun,
    ) -> None:
        spec, attempt = self.running.pop(finished)
        self.live_cost.pop(spec.id, None)
        if finished.cancelled():
            self.progress.cancelled(spec.id)
            return
        outcome = _outcome_of(finished, spec, attempt, self.err)
        if outcome is None:  # cancelled on the way (a Ray task, the second Ctrl+C)
            self.progress.cancelled(spec.id)
            return
        if outcome.infra and (self.presses or self.cancelled):
            self.progress.cancelled(spec.id)  # stopping: the next run starts it again
            return
        if outcome.infra and attempt <= self.retries:
            batch.retried += 1
            pending.appendleft((spec, attempt + 1))
            self.progress.retrying(spec.id, attempt + 1, self.retries + 1, outcome.record)
            return
        self.results.record(outcome.record, outcome.patch)
        batch.recorded.append(self.results.records[spec.id])
        self.progress.finished(self.results.records[spec.id], self.spent())

    @contextlib.contextmanager
    def _signals(self) -> Any:
        loop = asyncio.get_running_loop()
        handlers = {
            signal.SIGINT: self._interrupt,
            signal.SIGTERM: self._cancel_all,
            signal.SIGHUP: self._cancel_all,
        }
        with contextlib.suppress(NotImplementedError, RuntimeError):
            for signum, handler in handlers.items():
                loop.add_signal_handler(signum, handler)
        try:
            yield
        finally:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                for signum in handlers:
                    loop.remove_signal_handler(signum)

    def _interrupt(self) -> None:
        self.presses += 1
        if self.presses == 1:
            self.progress.say(
                f"stopping: no new tasks; {len(self.running)} running will finish "
                "(Ctrl+C again cancels them; the next run starts whatever did not finish)"
            )
        else:
            self._cancel_all()

    def _cancel_all(self) -> None:
        if not self.cancelled:
            self.progress.say(f"cancelling {len(self.running)} running tasks")
        self.cancelled = True
        for running in self.running:
            self.engine.cancel(running)


def _outcome_of(
    finished: asyncio.Future[Outcome], spec: TaskSpec, attempt: int, err: TextIO
) -> Outcome | None:
    """The task's outcome; a bug in one task is that task's error, the others go on."""
    try:
        return finished.result()
    except asyncio.CancelledError:
        return None
    except Exception as exc:  # a bug: its traceback is for the report, the batch goes on
        err.write(f"kiln: task {spec.id} hit a bug in kiln:\n")
        traceback.print_exception(exc, file=err)
        summary = f"kiln failed on this task ({type(exc).__name__}: {exc}); please report it."
        result = {"stop_reason": "internal_error", "exit_code": 1, "summary": summary}
        return outcome_for(spec, result, "", attempt, 0.0)
