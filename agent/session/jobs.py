"""The model's jobs as a session holds them: commands it started with `run` and
`background`, kept running in the sandbox beside the session (sandbox/services.py).

Each job's start is a JobStarted from the `run` tool; each end, however it came (the job
exited, the model or the person stopped it, `kiln run` ended, the disk limit, the sandbox
went), is one JobStopped, emitted when the sandbox says the job ended. Front ends list
them (`job_lines`: /jobs, the TUI's side panel) and stop them (`stop_jobs`); every job
stops with the session's sandbox when it closes.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from agent.boundary import one_sentence
from agent.errors import KilnError
from agent.events import Event, JobEnd, JobStopped
from agent.present import duration, short_command
from agent.run.core import Emit
from agent.session.streams import EventStreams
from sandbox.base import Sandbox
from sandbox.services import Service

JOB = "job"  # the kind of service a job is
LAST_LINES = 3  # a job's last lines in /jobs
LAST_BYTES = 2048


def job_stopped(service: Service) -> JobStopped:
    return JobStopped(
        service.id, service.command, JobEnd(service.ended_by), service.exit_code,
        round(service.uptime_s(), 1), service.ports, service.last_output,
    )  # fmt: skip


class SessionJobs:
    """The jobs part of a Session: what it reads of its sandbox and streams."""

    sandbox: Sandbox | None
    _streams: EventStreams
    _emit: Emit
    # Where a job's end goes when it comes between requests, for a front end that shows
    # it then (the TUI's side panel); without one it waits for the next request's stream,
    # as every event between them does.
    on_job_between: Emit | None = None

    if TYPE_CHECKING:

        def _record(self, event: Event) -> None: ...

    def watch_jobs(self, sandbox: Sandbox) -> None:
        """Once the sandbox started: each job's end becomes a JobStopped."""
        sandbox.on_service_end(self._job_ended)

    def _job_ended(self, service: Service) -> None:
        if service.kind != JOB:
            return
        event = job_stopped(service)
        if self._streams.running or self.on_job_between is None:
            self._emit(event)
        else:
            self._record(event)
            self.on_job_between(event)

    def jobs(self) -> list[Service]:
        """Every job of the session, running or ended, oldest first."""
        return [s for s in self.sandbox.services() if s.kind == JOB] if self.sandbox else []

    async def job_lines(self) -> list[str]:
        """/jobs: each job's id, command, uptime, ports and last lines."""
        jobs = self.jobs()
        if not jobs or self.sandbox is None:
            return ["No jobs: the model starts one with `run` and `background: true`."]
        lines = []
        now = time.time()
        for job in jobs:
            tail = job.last_output
            if job.running:
                with one_sentence():
                    _, output = await self.sandbox.read_service(job.id, new=False, most=LAST_BYTES)
                tail = output.text
            state = "running" if job.running else f"ended ({job.ended_by})"
            ports = f" · port {', '.join(map(str, job.ports))}" if job.ports else ""
            lines.append(
                f"job {job.id} · {state} · {duration(job.uptime_s(now))}{ports} · "
                f"{short_command(job.command)}"
            )
            lines += [f"    {line}" for line in tail.splitlines()[-LAST_LINES:]]
        if any(job.running for job in jobs):
            lines.append("/jobs stop ID stops one (/jobs stop all: every one).")
        return lines

    def stop_jobs(self, how: JobEnd, only: str = "") -> AsyncIterator[Event]:
        """Stop one job (`only`: its id) or every running one, as a stream of their
        JobStopped events. While a request runs, they go to its stream instead (see
        `stop_now`)."""

        async def work() -> None:
            await self.stop_now(how, only)

        return self._streams.stream(work)

    async def stop_now(self, how: JobEnd, only: str = "") -> list[Service]:
        """Stop them now; which were running."""
        sandbox = self.sandbox
        if sandbox is None:
            return []
        jobs = [job for job in self.jobs() if job.running]
        if only:
            ids = {job.id for job in self.jobs()}
            if only not in ids:
                known = ", ".join(sorted(ids, key=int)) or "none started yet"
                raise KilnError(f"There is no job {only!r} (jobs: {known}); give one of their ids.")
            jobs = [job for job in jobs if job.id == only]
        with one_sentence():
            await asyncio.gather(*(sandbox.stop_service(job.id, how.value) for job in jobs))
        return jobs
