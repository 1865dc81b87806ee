"""Running things in the sandbox: run (a command, or a job: agent/tools/jobs.py) and run_tests."""

from __future__ import annotations

import math
from typing import Any

from agent.approval import Action
from agent.tools.base import ToolContext, ToolFailure, ToolResult, arg_str, tool
from agent.tools.jobs import job_action, start_job
from agent.tools.testdigest import TestDigest, digest, runnable_check
from sandbox.base import ExecResult, Sandbox
from sandbox.gitstate import BIG_FILE_KB

DEFAULT_COMMAND_TIMEOUT_S = 120.0
BIG_FILE_MB = BIG_FILE_KB // 1024


def describe_exec(result: ExecResult) -> str:
    """Output plus the facts the model needs: exit code, timeout, what was cut."""
    output = result.output.rstrip()
    notes = []
    if result.timed_out:
        notes.append(f"[timed out after {result.duration_s:.0f}s and was stopped]")
    notes.extend(f"[{note}]" for note in result.notes)  # out of memory, processes left behind
    if result.stopped_by:
        notes.append(f"[{result.stopped_by}]")
    if result.left_out:
        notes.append(
            f"[{', '.join(result.left_out[:5])}: over {BIG_FILE_MB} MB, so kiln leaves "
            "it out of the diff, the checkpoints and what is applied]"
        )
    if result.truncated:
        notes.append(f"[output cut to head and tail; {result.total_bytes} bytes in all]")
    notes.append(f"[exit code {result.exit_code}]")
    return (output + "\n" if output else "") + "\n".join(notes)


@tool(
    "run",
    "Run a shell command in the sandbox (a copy of the repository; no network). "
    "Returns its output and exit code. A server or watcher that must keep running while "
    "other commands use it: `background: true` starts it as a job and returns its id at "
    "once; `job: ID` alone reads its new output, with `stop: true` stops it.",
    {
        "command": {"type": "string"},
        "timeout_s": {"type": "number", "description": "seconds before it is stopped"},
        "background": {
            "type": "boolean",
            "description": "keep it running as a job (a server on 127.0.0.1, a watcher)",
        },
        "job": {"type": "string", "description": "a job's id: read its new output"},
        "stop": {"type": "boolean", "description": "with `job`: stop that job"},
    },
    [],
)
async def run(ctx: ToolContext, args: dict[str, Any]) -> ToolResult:
    if args.get("job") is not None and not args.get("command"):
        return await job_action(ctx, args)
    command = arg_str(args, "command").strip()
    if not command:
        raise ToolFailure("`command` is empty.")
    background = args.get("background")
    if background not in (None, True, False):
        raise ToolFailure("`background` must be true or false.")
    try:
        timeout = float(args.get("timeout_s") or DEFAULT_COMMAND_TIMEOUT_S)
        if math.isnan(timeout):  # nan slips through min() and max(): no limit at all
            raise ValueError(timeout)
    except (TypeError, ValueError):
        raise ToolFailure("`timeout_s` must be a number of seconds.") from None
    timeout = min(max(timeout, 1.0), ctx.max_command_timeout_s)
    # A job is a run of its command for the gate and the [permissions] rules alike.
    refusal = await ctx.gate.check(Action.COMMAND, f"run `{command}`", ctx.emit, command=command)
    if refusal:
        return ToolResult(False, refusal)
    if background:
        return await start_job(ctx, command)
    result = await ctx.sandbox.exec(command, timeout=timeout)
    # A command may have written files; the loop compares the workspace to know for sure.
    return ToolResult(
        result.ok,
        describe_exec(result),
        exit_code=result.exit_code,
        truncated=result.truncated,
        edited=True,
    )


async def first_runnable(sandbox: Sandbox, commands: list[str]) -> int:
    """The index of the first command whose runner exists in the sandbox (one round
    trip for all of them), or -1."""
    checks = "; ".join(
        f"if {runnable_check(c)}; then echo {i}; exit 0; fi" for i, c in enumerate(commands)
    )
    _, said = await sandbox.probe(f"{checks}; echo -1")
    try:
        return int(said.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return -1


async def run_test_command(
    ctx: ToolContext, extra_args: str = "", timeout_s: float | None = None
) -> TestDigest:
    """Run the test command and digest it; used by run_tests and by the loop itself.
    `timeout_s`: a shorter limit than the configured one (a candidate that hangs)."""
    if not ctx.test_command:
        raise ToolFailure(
            "No test command is known for this repository; run the tests with `run`, "
            "or the person can set [tests] command in .kiln.toml."
        )
    limit = ctx.settings.tests.timeout_s
    command = f"{ctx.test_command} {extra_args}".strip()
    return await tests_in(ctx.sandbox, command, min(limit, timeout_s or limit))


# Where a diff waits inside the workspace's own git dir while git applies it (never part of
# the workspace's diff).
PATCH = ".git/kiln-apply.patch"


async def apply_in(sandbox: Sandbox, diff: str, timeout: float | None = None) -> str | None:
    """`git apply` a diff (binary-safe) to the sandbox's workspace: None when it applied,
    else git's last words on why not. A resumed session's changes and a child agent's
    taken by its parent both come in this way. `timeout`: the sandbox's default when None."""
    await sandbox.write_file(PATCH, diff.encode())
    done = await sandbox.exec(
        f"git apply --binary --whitespace=nowarn {PATCH}; status=$?; rm -f {PATCH}; exit $status",
        timeout=timeout,
    )
    return None if done.ok else (done.output.strip()[-500:] or f"exit {done.exit_code}")


async def tests_in(sandbox: Sandbox, command: str, timeout_s: float) -> TestDigest:
    """Run the test `command` in `sandbox` and digest its whole output."""
    result = await sandbox.exec(command, timeout=timeout_s)
    output = result.output
    if result.truncated and result.full_output_path:
        try:
            with open(result.full_output_path, encoding="utf-8", errors="replace") as whole:
                output = whole.read()
        except OSError:
            pass  # the capped head and tail still carry the summary
    return digest(
        command, output, result.exit_code, timed_out=result.timed_out, duration_s=result.duration_s
    )


@tool(
    "run_tests",
    "Run the repository's tests and get a digest: counts, failing tests, assertion "
    "messages. `args` is appended to the test command (e.g. a test file or -k name).",
    {"args": {"type": "string", "description": "extra arguments for the test command"}},
    [],
)
async def run_tests(ctx: ToolContext, args: dict[str, Any]) -> ToolResult:
    extra = arg_str(args, "args", default="")
    report = await run_test_command(ctx, extra)
    return ToolResult(report.ok, report.text, exit_code=report.exit_code, tests=report)
