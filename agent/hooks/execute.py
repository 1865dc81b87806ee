"""Running one hook's process, on the host or in the session's sandbox, its output read up
to a bound: a hook that prints more than `OUTPUT_LIMIT` is stopped there and blocks (a
guard whose answer cannot be read whole guards nothing), and kiln never holds more than
the bound in memory, whatever the hook prints.

The sandbox has no stdin and one output stream for a command, so there the hook's input is
a file in the workspace's `.git` (which no diff or checkpoint holds), and its stdout and
stderr are cut to the bound inside the sandbox, each into a file of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import signal
from collections.abc import Callable, Mapping
from pathlib import Path

from agent.hooks.config import Hook
from sandbox.base import Sandbox, SandboxError
from sandbox.frozen import frozen

OUTPUT_LIMIT = 1 << 20  # bytes of a hook's stdout (and of its stderr) kiln reads
_CHUNK = 1 << 16
# The hook's files in the sandbox: under the workspace's `.git`, never part of a diff.
SCRATCH = ".git/kiln-hook"
WORKSPACE = "/workspace"


@frozen
class Ran:
    """What one hook's process did; `failure` is "" when it ran to its end and its output
    fit the bound."""

    code: int | None
    out: str
    err: str
    failure: str = ""


def _over_limit() -> str:
    return f"printed more than {OUTPUT_LIMIT >> 20} MB, and was stopped there unread"


def _timed_out(hook: Hook) -> Ran:
    return Ran(None, "", "", f"ran over its timeout of {hook.timeout_s:g} s and was stopped")


def _text(data: bytes) -> str:
    return data[:OUTPUT_LIMIT].decode("utf-8", "replace")


async def on_host(hook: Hook, stdin: bytes, cwd: Path, env: Mapping[str, str]) -> Ran:
    """The hook as a process on the host, in its own process group (stopped whole)."""
    try:
        process = await asyncio.create_subprocess_exec(
            "/bin/sh", "-c", hook.command, cwd=cwd, env=dict(env),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, start_new_session=True,
        )  # fmt: skip
    except OSError as exc:
        return Ran(None, "", "", f"could not be started ({exc.strerror})")
    assert process.stdout is not None and process.stderr is not None
    over = False

    def stop() -> None:  # more than kiln reads: the hook ends here
        nonlocal over
        over = True
        _kill(process)

    try:
        async with asyncio.timeout(hook.timeout_s):
            _, out, err = await asyncio.gather(
                _feed(process, stdin),
                _bounded(process.stdout, stop),
                _bounded(process.stderr, stop),
            )
            code = await process.wait()
    except TimeoutError:
        _kill(process)
        await _reaped(process)
        return _timed_out(hook)
    except BaseException:  # cancelled (Esc): the hook goes with the step
        _kill(process)
        raise
    if over:
        return Ran(code, _text(out), _text(err), _over_limit())
    if code < 0:
        return Ran(code, _text(out), _text(err), f"was killed by signal {-code}")
    return Ran(code, _text(out), _text(err))


async def _feed(process: asyncio.subprocess.Process, data: bytes) -> None:
    """The hook's input; a hook that does not read it (or ends first) is no error."""
    assert process.stdin is not None
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        process.stdin.write(data)
        await process.stdin.drain()
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        process.stdin.close()


async def _bounded(stream: asyncio.StreamReader, stop: Callable[[], None]) -> bytes:
    """Up to one byte over the bound (enough to know the hook printed too much, which
    stops it); what comes after is read and dropped, so the pipe reaches its end."""
    data = bytearray()
    while chunk := await stream.read(_CHUNK):
        if len(data) <= OUTPUT_LIMIT:
            data += chunk
            if len(data) > OUTPUT_LIMIT:
                stop()
    return bytes(data[: OUTPUT_LIMIT + 1])


async def _reaped(process: asyncio.subprocess.Process) -> None:
    """Its end, after a kill; a process it left holding a pipe does not hold kiln."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(process.wait(), 5)


def _kill(process: asyncio.subprocess.Process) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def _script(hook: Hook, env: Mapping[str, str]) -> str:
    """bash: the hook with its input from the scratch file, stdout and stderr each cut to
    the bound into a file of their own (the swap through fd 3), its exit code kept."""
    cut = f"head -c {OUTPUT_LIMIT + 1}"
    exports = " ".join(f"{name}={shlex.quote(value)}" for name, value in env.items())
    return (
        f"d={SCRATCH}; rm -f $d/out $d/err $d/rc; export {exports}; "
        f"{{ {{ sh -c {shlex.quote(hook.command)} < $d/in 2>&1 1>&3 3>&- | {cut} > $d/err; "
        f'echo "${{PIPESTATUS[0]}}" > $d/rc; }} 3>&1 | {cut} > $d/out; }}; '
        'exit "$(cat $d/rc 2>/dev/null || echo 125)"'
    )


_COPY_CUT = (
    f"d={SCRATCH}; rm -f $d/o $d/e; head -c {OUTPUT_LIMIT + 1} $d/out > $d/o 2>/dev/null; "
    f"head -c {OUTPUT_LIMIT + 1} $d/err > $d/e 2>/dev/null; true"
)


async def in_sandbox(
    hook: Hook, stdin: bytes, sandbox: Sandbox | None, env: Mapping[str, str]
) -> Ran:
    """The hook inside the session's sandbox: the workspace as the model left it, no
    network, no keys, the sandbox's limits; what it writes is part of the workspace."""
    if sandbox is None:
        return Ran(None, "", "", "could not run: the session's sandbox is not running")
    try:
        await sandbox.write_file(f"{SCRATCH}/in", stdin)
        result = await sandbox.exec(_script(hook, env), timeout=hook.timeout_s)
        if result.timed_out:
            return _timed_out(hook)
        # Copied by a command of kiln's own once nothing of the hook runs any more (the
        # sandbox ends what a command left behind): what the hook left at those names may
        # be a link to an endless file, and only a cut copy is read.
        await sandbox.exec(_COPY_CUT, timeout=30)
        out, err = await _scratch(sandbox, "o"), await _scratch(sandbox, "e")
    except SandboxError as exc:
        return Ran(None, "", "", f"could not run in the sandbox ({exc})")
    if len(out) > OUTPUT_LIMIT or len(err) > OUTPUT_LIMIT:
        return Ran(result.exit_code, _text(out), _text(err), _over_limit())
    if result.oom_killed or result.stopped_by:
        why = result.stopped_by or "ran out of the sandbox's memory"
        return Ran(result.exit_code, _text(out), _text(err), why)
    return Ran(result.exit_code, _text(out), _text(err))


async def _scratch(sandbox: Sandbox, name: str) -> bytes:
    try:
        return await sandbox.read_file(f"{SCRATCH}/{name}")
    except FileNotFoundError:
        return b""
