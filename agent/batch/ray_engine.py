"""The Ray engine (`--engine ray [--address ADDR]`, extra `kiln-code[ray]`): one Ray task per batch task.

Each task asks for one unit of the custom resource `kiln_sandbox`, which every node offers
as many times as it may run sandboxes (`ray start --resources='{"kiln_sandbox": K}'`);
the task runs `execute` on that node, against its own Docker engine, and sends back only
the record and the patch. The driver alone writes DIR. A node lost mid-task is a system
failure Ray retries on another node (`max_retries`); should the retries run out, the task
comes back as an infrastructure failure, which the driver retries or records once.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent.batch.execute import BatchOptions, Outcome, execute, outcome_for
from agent.batch.tasks import TaskSpec
from agent.errors import UsageError

if TYPE_CHECKING:
    from agent.store.db import Store

RESOURCE = "kiln_sandbox"
# Ray turns 127.0.0.1 into the machine's outward address (so that other nodes can reach
# it); a cluster of this machine alone has no other node, so it takes another loopback
# address, which Ray keeps as given: nothing of it is reachable from outside.
LOCAL_NODE_IP = "127.0.0.2"


def run_on_node(
    spec_data: dict[str, Any], options_data: dict[str, Any], attempt: int
) -> dict[str, Any]:
    """The Ray task: one batch task on whichever node has a free sandbox slot."""
    import ray

    spec = TaskSpec(**{**spec_data, "setup": tuple(spec_data["setup"])})
    try:
        work = execute(spec, BatchOptions(**options_data), attempt, store=_node_store())
        outcome = asyncio.run(_ticking(work))
    finally:  # cancelled too: the session closed its sandbox on the way out
        wait_for_children()
    # The node's address says which machine; its id, which Ray node (there may be several).
    node_id = ray.get_runtime_context().get_node_id()[:8]
    outcome.record["node"] = f"{ray.util.get_node_ip_address()} ({node_id})"
    return outcome.to_dict()


@functools.cache
def _node_store() -> Store:
    """One connection to the node's session store per worker process, kept for its tasks."""
    from agent.store.db import Store

    return Store()


async def _ticking(work: Coroutine[Any, Any, Outcome]) -> Outcome:
    """`ray.cancel` arrives as a KeyboardInterrupt that only the main thread's next Python
    step can raise: a loop asleep in select() (a slow model) would hold it back for as long
    as it sleeps. A tick keeps it prompt; asyncio.run then cancels the task, whose session
    closes its sandbox."""

    async def tick() -> None:
        while True:
            await asyncio.sleep(0.1)

    ticker = asyncio.ensure_future(tick())
    try:
        return await work
    finally:
        ticker.cancel()


def wait_for_children(timeout_s: float = 30.0) -> None:
    """Ray ends a worker's child processes when the worker exits (an idle worker soon does):
    the sandbox's reaper, a child still removing the task's container and volume, must be
    let finish first, or the volume is left behind."""
    deadline = time.monotonic() + timeout_s
    while _live_children() and time.monotonic() < deadline:
        time.sleep(0.1)


def _live_children() -> list[str]:
    me = str(os.getpid())
    children = []
    for proc in Path("/proc").glob("[0-9]*/stat"):
        try:
            # pid (comm) state ppid ...: comm may hold spaces, so split after its ')'
            state, ppid = proc.read_text().rpartition(")")[2].split()[:2]
        except (OSError, ValueError):
            continue
        if ppid == me and state != "Z":
            children.append(proc.parent.name)
    return children


class RayEngine:
    name = "ray"

    def __init__(
        self, options: BatchOptions, *, address: str | None, jobs: int | None, retries: int
    ) -> None:
        # Nothing leaves the machine unless asked: no usage report (a person may turn it on).
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        try:
            import ray
        except ImportError:
            raise UsageError(
                "--engine ray needs Ray: install kiln with its extra, `pip install 'kiln-code[ray]'`."
            ) from None
        self.ray = ray
        self.options = options
        address = address or os.environ.get("RAY_ADDRESS")
        try:
            if address:
                ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
            else:  # no cluster named: one on this machine, for --jobs sandboxes
                ray.init(
                    num_cpus=1,
                    resources={RESOURCE: jobs or 2},
                    object_store_memory=100 * 1024 * 1024,  # results are small dicts
                    include_dashboard=False,
                    _node_ip_address=LOCAL_NODE_IP,
                    log_to_driver=False,
                    logging_level=logging.ERROR,
                )
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise UsageError(
                f"Ray does not answer at {address or 'this machine'} ({exc}); start the cluster "
                "(`ray start --head`) or give its --address."
            ) from None
        slots = int(ray.cluster_resources().get(RESOURCE, 0))
        if slots < 1:
            ray.shutdown()
            raise UsageError(
                f"No node of the Ray cluster offers the resource {RESOURCE}; start each node with "
                f"`ray start ... --resources='{{\"{RESOURCE}\": K}}'` (K sandboxes it may run)."
            )
        # Enough submitted to keep every slot busy; Ray itself holds them to the slots.
        self.capacity = jobs or 2 * slots
        self._remote = ray.remote(run_on_node).options(
            num_cpus=0, resources={RESOURCE: 1}, max_retries=retries
        )
        self._refs: dict[asyncio.Future[Outcome], Any] = {}

    def start(
        self, spec: TaskSpec, attempt: int, on_cost: Callable[[float], None]
    ) -> asyncio.Future[Outcome]:
        del on_cost  # the cost of a remote task is known when it comes back
        ref = self._remote.remote(spec.to_dict(), _plain(self.options), attempt)
        running = asyncio.ensure_future(self._result(ref, spec, attempt))
        self._refs[running] = ref
        running.add_done_callback(lambda done: self._refs.pop(done, None))
        return running

    async def _result(self, ref: Any, spec: TaskSpec, attempt: int) -> Outcome:
        from ray import exceptions

        try:
            data = await ref
        except exceptions.TaskCancelledError:
            raise asyncio.CancelledError from None
        except (
            exceptions.NodeDiedError,
            exceptions.WorkerCrashedError,
            exceptions.ObjectLostError,
            exceptions.RaySystemError,
        ) as exc:
            summary = f"the Ray node running it was lost ({type(exc).__name__})"
            result = {"stop_reason": "node_lost", "exit_code": 5, "summary": summary}
            return outcome_for(spec, result, "", attempt, 0.0)
        return Outcome(**data)

    def cancel(self, running: asyncio.Future[Outcome]) -> None:
        """The task's session is interrupted on its node and closes its sandbox there."""
        ref = self._refs.get(running)
        if ref is not None:
            self.ray.cancel(ref)

    async def close(self) -> None:
        self.ray.shutdown()


def _plain(options: BatchOptions) -> dict[str, Any]:
    from dataclasses import asdict

    return asdict(options)
