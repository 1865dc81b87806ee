"""The Sandbox protocol, its settings, and what `exec` returns."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol, runtime_checkable

# A sandbox's settings live apart, light to import: kiln's settings hold them, and the TUI's
# first frame loads the settings but not the protocol or the results below.
from sandbox.config import DEFAULT_IMAGE as DEFAULT_IMAGE
from sandbox.config import SandboxConfig as SandboxConfig
from sandbox.frozen import frozen
from sandbox.services import READ_MOST, Service, ServiceOutput

PROBE_TIMEOUT_S = 30.0
# Where a process's output goes, piece by piece.
Sink = Callable[[bytes], None]
PROBE_KEPT = 65536  # a probe's output kept, at most: it answers in a line or two


class SandboxError(Exception):
    """A sandbox problem the person can act on; the message is one sentence saying what to do."""


class SandboxGone(SandboxError):
    """The container (or process jail) disappeared from under us mid-session."""


@frozen
class ExecResult:
    """What one command in the sandbox did: its exit code, its output (capped) and how it ended."""

    exit_code: int
    output: str  # stdout+stderr interleaved, capped head+tail at output_cap_bytes
    total_bytes: int  # size of the whole output before capping
    duration_s: float
    timed_out: bool = False
    truncated: bool = False
    full_output_path: str | None = None  # the whole output, for paging, when truncated
    oom_killed: bool = False
    stopped_by: str = ""  # why kiln stopped the command itself, as a sentence for the model
    left_out: tuple[str, ...] = ()  # files it wrote too big for diffs, checkpoints, apply
    # What else the model must know, one sentence each: it ran out of memory, it left
    # processes behind that kiln killed, something grew past the disk limit between commands.
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out


class NoServices:
    """The service methods of a sandbox that never runs one (a review's read-only view)."""

    def services(self) -> list[Service]:
        return []

    def on_service_end(self, callback: Callable[[Service], None]) -> None:
        return None

    async def start_service(self, command: str, kind: str = "job") -> Service:
        raise SandboxError("This sandbox runs no jobs; run the command without `background`.")

    async def read_service(
        self, service_id: str, *, new: bool = True, most: int = READ_MOST
    ) -> tuple[Service, ServiceOutput]:
        raise SandboxError(f"There is no job {service_id!r}; this sandbox runs none.")

    async def stop_service(self, service_id: str, how: str) -> Service:
        raise SandboxError(f"There is no job {service_id!r}; this sandbox runs none.")

    async def stop_services(self, how: str) -> list[Service]:
        return []


@runtime_checkable
class Sandbox(Protocol):
    """A writable view of one repository, isolated from the host.

    Paths given to read_file/write_file are relative to the workspace root.
    """

    repo: Path
    backend: str  # "docker" or "bwrap": what the meter shows
    notes: list[str]  # what starting had to say, for the person
    baseline: str | None  # the checkpoint of the workspace as it started
    last_checkpoint: str | None
    progress: Callable[[str], None]  # each line of a long start (the setup's output)
    # Called once, on the loop, when the start has nothing left to do but wait for the
    # engine (a container's create and start): the caller's own work fits in that wait.
    waiting: Callable[[], None]

    async def start(self) -> None: ...

    async def exec(
        self, cmd: str, *, timeout: float | None = None, cwd: str | None = None
    ) -> ExecResult: ...

    async def probe(self, script: str, *, timeout: float = PROBE_TIMEOUT_S) -> tuple[int, str]:
        """A question kiln asks the sandbox that changes nothing (is a program there?),
        run as a command is, without a command's bookkeeping: its exit code and output."""
        ...

    async def read_file(self, path: str) -> bytes: ...

    async def write_file(self, path: str, data: bytes) -> None: ...

    async def diff(self) -> str:
        """Binary-safe git diff of the workspace against the starting state."""
        ...

    async def changed_files(self) -> list[str]: ...

    def snapshot_soon(self) -> None:
        """A hint: nothing will be asked of the workspace for a while, so its diff may be
        brought up to date meanwhile (the next `diff()` is then ready at once)."""
        ...

    async def rebaseline(self) -> None:
        """The workspace as it is now becomes the baseline (once its changes are applied)."""
        ...

    async def checkpoint(self, label: str) -> str: ...

    async def restore(self, ref: str) -> None: ...

    # Services: processes kept running beside the session (sandbox/services.py). A backend
    # that cannot hold one to the sandbox's limits refuses to start one, in one sentence.
    def services(self) -> list[Service]: ...

    def on_service_end(self, callback: Callable[[Service], None]) -> None: ...

    async def start_service(self, command: str, kind: str = "job") -> Service: ...

    async def read_service(
        self, service_id: str, *, new: bool = True, most: int = READ_MOST
    ) -> tuple[Service, ServiceOutput]: ...

    async def stop_service(self, service_id: str, how: str) -> Service: ...

    async def stop_services(self, how: str) -> list[Service]: ...

    async def close(self) -> None: ...
