"""Jobs: commands the model keeps running beside its work (a dev server, a watcher), as
arguments of `run` (the coding group holds its ten tools): `background: true` starts
one and returns its id at once; `job: ID` reads its new output; with `stop: true`, stops
it. A job runs in the sandbox (sandbox/services.py) under its limits, reachable from the
sandbox only; starting one goes through the approval gate as `run` of that command does.
"""

from __future__ import annotations

import asyncio
from typing import Any

from agent.events import JobEnd, JobStarted
from agent.present import duration
from agent.tools.base import ToolContext, ToolFailure, ToolResult, arg_str
from sandbox.base import SandboxError
from sandbox.services import LOG_KEEP, Service, ServiceOutput

# A job that fails at once (a typo, a port in use) says so in the answer to its start.
FIRST_LOOK_S = 1.0


async def start_job(ctx: ToolContext, command: str) -> ToolResult:
    """The gate has allowed `command`: start it as a job, look at it once, return its id."""
    try:
        job = await ctx.sandbox.start_service(command)
    except SandboxError as exc:
        return ToolResult(False, str(exc))
    ctx.emit(JobStarted(job.id, command, job.log))
    for _ in range(int(FIRST_LOOK_S / 0.1)):
        await asyncio.sleep(0.1)
        if not job.running:
            break
    job, output = await ctx.sandbox.read_service(job.id)
    how = (
        f"Job {job.id} started and keeps running beside your work until you stop it "
        f'(run with job: "{job.id}", stop: true) or the session ends. Read its new output '
        f'with run job: "{job.id}"; the last {LOG_KEEP >> 20} MB of it are also in {job.log}.'
    )
    if not job.running:
        how = f"Job {job.id} already ended (exit {job.exit_code}); its output:"
    ok = job.running or job.exit_code == 0
    return ToolResult(ok, _with_output(how, output), edited=True)


async def job_action(ctx: ToolContext, args: dict[str, Any]) -> ToolResult:
    """`job: ID`: its new output; with `stop: true`, stop it first."""
    raw = args.get("job")
    numbered = isinstance(raw, int) and not isinstance(raw, bool)  # `job: 1` is meant too
    job_id = (str(raw) if numbered else arg_str(args, "job")).strip()
    stop = args.get("stop") is True
    if args.get("stop") not in (None, True, False):
        raise ToolFailure("`stop` must be true or false.")
    try:
        if stop:
            await ctx.sandbox.stop_service(job_id, JobEnd.STOPPED.value)
        job, output = await ctx.sandbox.read_service(job_id)
    except SandboxError as exc:
        raise ToolFailure(str(exc)) from None
    stopped_now = stop and job.ended_by == JobEnd.STOPPED.value
    return ToolResult(True, _with_output(_state(job, stopped_now), output))


def _state(job: Service, stopped_now: bool) -> str:
    ran = duration(job.uptime_s())
    if job.running:
        ports = f", listening on port {', '.join(map(str, job.ports))}" if job.ports else ""
        return f"[job {job.id} running for {ran}{ports}: {job.command}]"
    code = "" if job.exit_code is None else f", exit {job.exit_code}"
    how = "stopped now" if stopped_now else f"ended ({job.ended_by}{code})"
    return f"[job {job.id} {how} after {ran}: {job.command}]"


def _with_output(head: str, output: ServiceOutput) -> str:
    skipped = f"[{output.skipped} bytes before this are not shown]\n" if output.skipped else ""
    text = output.text.rstrip()
    return f"{head}\n{skipped}{text}" if text else f"{head}\n[no new output]"
