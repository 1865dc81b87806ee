"""Services: processes kept running in a sandbox beside the session, and their records.

A command ends with everything it started (sandbox/strays.py). A service outlives the
command that started it, by kiln's decision (a language server) or the model's (a job,
`run` with `background`). Each has an id, runs inside the container's memory, CPU and
pids limits, keeps its output on disk in the sandbox's state dir (its last part only:
`LOG_KEEP` bytes however much it writes), and listens on ports reachable from the same
sandbox only (the container has no network). The command server runs it
(sandbox/exec_server.py) and its stray sweep leaves it, and what it starts in its own
session, alone while it runs; a process that leaves that session is killed as any
command's would be. Every service stops with the session (the server stops what runs
when kiln lets go), and a crashed kiln's are removed with its container by
`kiln sandbox prune`.

`Service` is the record every caller lists (a job, or a language server started by its
own `docker exec`, which can be listed by it too); sandbox/service_table.py starts, reads
and stops the Docker backend's through its command server.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from sandbox.frozen import frozen

SERVICES = "/kiln/services"  # inside the container: the state dir's services/
LOG_KEEP = 2 << 20  # the last 2 MB of a service's output
READ_MOST = 8 << 10  # what one read hands the model, at most: the newest part
LAST_OUTPUT = 2 << 10  # what is kept of a service's output in its record when it ends

# How a service ended (`Service.ended_by`); agent.event_values.JobEnd has the same values.
EXITED = "exited"  # on its own
STOPPED = "stopped"  # the model stopped it
PERSON = "person"  # the person did (/jobs stop)
RUN_ENDED = "run_ended"  # still running when `kiln run` ended
DISK = "disk_limit"  # the workspace grew past the disk limit while no command ran
LOST = "lost"  # the sandbox went away (closed, or its command server died)

NO_JOBS = (
    "Jobs need the Docker sandbox with its command server: here nothing would hold a "
    "process that outlives its command to the sandbox's limits; run the server and what "
    "uses it within one command (`srv & sleep 1; curl ...`)."
)


def jobs_stopped_sentence(ids: list[str], limit: str) -> str:
    what = f"job {ids[0]}" if len(ids) == 1 else f"jobs {', '.join(ids)}"
    return (
        f"While no command ran, the workspace grew past its disk limit of {limit} ([sandbox] "
        f"disk_limit), so kiln stopped {what}; delete what you do not need and write less."
    )


@dataclass(eq=False, repr=False)  # state, compared and shown by identity
class Service:
    """One process kept running beside the session. `id` is what the model and the person
    name it by; `log` is where its output is kept, inside the sandbox."""

    id: str
    kind: str  # "job": the model's; kiln's own use another kind (a language server)
    command: str
    started: float  # time.time()
    log: str
    ports: tuple[int, ...] = ()  # the TCP ports it listened on when last looked at
    exit_code: int | None = None
    ended_by: str = ""  # "" while it runs, else one of the values above
    ended: float | None = None  # time.time()
    total: int = 0  # bytes of output in all, as last looked at
    read_upto: int = 0  # the model has read its output up to here
    last_output: str = ""  # its last bytes of output, read when it ended

    @property
    def running(self) -> bool:
        return not self.ended_by

    def uptime_s(self, now: float | None = None) -> float:
        return (self.ended or now or time.time()) - self.started


@frozen
class ServiceOutput:
    """What a read of a service's output found: `text` from `start` on, and how many bytes
    since the asked offset are no longer kept (or were left out to stay within a read)."""

    text: str
    start: int
    skipped: int
    end: int  # the offset after it: where the next read of new output begins


class ServiceRunner(Protocol):
    """What runs a backend's services (sandbox/service_table.py for Docker's)."""

    services: dict[str, Service]  # by id, oldest first
    on_end: Callable[[Service], None]

    def get(self, service_id: str) -> Service:
        """The service of that id; SandboxError (one sentence) when there is none."""
        ...

    async def start(
        self, command: str, kind: str, cwd: str, env: dict[str, str] | None = None
    ) -> Service: ...

    async def read(self, service: Service, since: int, most: int = READ_MOST) -> ServiceOutput: ...

    async def stop(self, service: Service, how: str) -> Service: ...

    async def stop_all(self, how: str) -> list[Service]: ...
