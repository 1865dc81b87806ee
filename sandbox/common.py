"""What every backend shares: the exec wrapper, output capping, and the git-backed workspace ops.

A backend supplies `_run` (run argv inside the sandbox, feed output to a sink, honour a
deadline) and `_write_file`; everything else here is written once on top of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import shlex
import time
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path, PurePosixPath
from typing import Any, TypeVar

from sandbox import gitstate, quota, strays
from sandbox.base import PROBE_KEPT, PROBE_TIMEOUT_S, ExecResult, SandboxConfig, SandboxError, Sink
from sandbox.frozen import frozen
from sandbox.idle_watch import IdleDiskWatch
from sandbox.output import OutputCapture
from sandbox.services import (
    DISK,
    NO_JOBS,
    READ_MOST,
    Service,
    ServiceOutput,
    ServiceRunner,
    jobs_stopped_sentence,
)
from sandbox.sizes import parse_bytes
from sandbox.workspace import Layout

T = TypeVar("T")

# Exit status of `timeout` when it had to stop the command.
_TIMEOUT_EXIT = 124
_KILLED_EXIT = 137
# A process killed by SIGXFSZ: it wrote past the file size limit, which is the disk limit.
_FILE_TOO_BIG_EXIT = 128 + 25
# An overlay's upper dir with at most this many entries is looked through for files too
# big for a diff on the event loop (about a millisecond at most); a bigger one by `find`.
SMALL_UPPER = 500


@frozen
class RunOutcome:
    """How a process run in the sandbox ended: its exit code, and what else stopped it."""

    exit_code: int
    oom_killed: bool = False
    deadline_hit: bool = False  # kiln gave up waiting (the in-sandbox timeout failed)
    strays: int = 0  # processes it left outside its process group, killed when it ended


def command_argv(cmd: str, timeout: float) -> list[str]:
    """Run `cmd` under `timeout` in a process group of its own, then end that whole group.

    `timeout` puts itself and everything the command starts into a new process group and
    signals the group when time is up (TERM, then KILL one second later). Whatever the
    command left running in the background (a fork bomb, a forgotten server) is killed when
    it returns, so no command outlives its call. stdin is /dev/null: nothing can wait for
    input. stderr joins stdout in one pipe so the two stay in the order they were written.
    With KILN_GROUP_FILE set, the group's id is written there, so a caller that cannot
    signal the command directly (plain `docker exec`) can end the group when cancelled.
    """
    limit = f"{max(timeout, 0.01):.3f}"
    runner = (
        f'timeout -k 1 {limit} bash -c "$1" </dev/null 2>&1 & p=$!; '
        '[ -z "$KILN_GROUP_FILE" ] || echo $p > "$KILN_GROUP_FILE"; { wait $p; } 2>/dev/null; '
        "rc=$?; kill -KILL -- -$p 2>/dev/null; exit $rc"
    )
    return ["bash", "-c", runner, "kiln-exec", cmd]


def safe_relpath(path: str) -> str:
    """A workspace-relative path that cannot climb out of /workspace."""
    pure = PurePosixPath(path)
    if pure.is_absolute():
        try:
            pure = pure.relative_to(gitstate.WORKSPACE)
        except ValueError:
            raise SandboxError(
                f"{path} is outside the workspace; give a path relative to the repository."
            ) from None
    if ".." in pure.parts or not pure.parts:
        raise SandboxError(f"{path} is not a file inside the workspace; give a relative path.")
    return str(pure)


@frozen
class _Snapshot:
    """The workspace's tree, changed paths and diff as of one generation of changes."""

    generation: int
    tree: str
    paths: tuple[str, ...]
    diff: str


class WorkspaceSandbox:
    """Base of the backends. Subclasses implement `_run`, `_write_file`, `start`, `close`."""

    repo: Path

    def __init__(self, repo: Path, config: SandboxConfig) -> None:
        self.repo = Path(repo).resolve()
        self.config = config
        self.layout: Layout | None = None
        self.mode: str | None = None  # "overlay" or "copy": where the workspace's files are
        self.baseline: str | None = None
        self.last_checkpoint: str | None = None
        # What starting had to say (a setup that ran or was cached), and where a long
        # start reports its lines (the setup's output); the session sets `progress`.
        self.notes: list[str] = []
        self.progress: Callable[[str], None] = _ignore
        self.waiting: Callable[[], None] = _nothing
        self._counter = itertools.count(1)
        # What the workspace looked like at the last snapshot, while nothing can have
        # changed it since: `_generation` moves on every write, restore and command (at
        # start and end), `_running` counts commands in flight.
        self._generation = 0
        self._running = 0
        self._snapshot: _Snapshot | None = None
        self._snapshotting: asyncio.Task[_Snapshot] | None = None  # see snapshot_soon()
        # Every script that writes kiln's git index holds this: two at once (two callers
        # asking one sandbox's diff, such as child agents started over it side by side)
        # would race on the index's lock file and one would fail.
        self._index = asyncio.Lock()
        self.idle_watch = IdleDiskWatch(
            lambda: self.layout.root if self.layout else None,
            self.disk_limit,
            config.disk_limit,
            lambda: self._running > 0,
            self._stop_background,
        )
        # Processes kept beside the session (sandbox/services.py); None: this backend
        # cannot hold one to the sandbox's limits, so none starts.
        self.service_table: ServiceRunner | None = None

    # -- backend hooks ---------------------------------------------------------------
    async def _run(
        self,
        argv: list[str],
        sink: Sink,
        *,
        cwd: str,
        env: dict[str, str] | None = None,
        deadline_s: float | None = None,
        err_sink: Sink | None = None,
        sweep: bool = False,
    ) -> RunOutcome:
        """Run argv inside; stdout to `sink`, stderr to `err_sink` (or interleaved into `sink`).
        With `sweep` (a command's), what it left running outside its group is killed after."""
        raise NotImplementedError

    async def _run_command(self, cmd: str, limit: float, sink: Sink, cwd: str) -> RunOutcome:
        """One of exec()'s commands: bash runs `cmd` with no input, stderr joined to
        stdout, stopped after `limit` seconds (exit 124), everything it left in its process
        group killed when it ends, then its strays. By default the wrapper does that
        inside the sandbox (command_argv), and kiln gives up 10 s after the limit."""
        return await self._run(
            command_argv(cmd, limit), sink, cwd=cwd, deadline_s=limit + 10, sweep=True
        )

    async def stop_strays(self) -> int:
        """Kill what commands left running in the background; how many. Nothing by default:
        a backend whose commands each end with their own pid namespace leaves none."""
        return 0

    async def _stop_background(self) -> int:
        """Past the disk limit between commands: the strays die, or, when there were none,
        the jobs stop (which of them wrote cannot be told, so all); how many strays."""
        killed = await self.stop_strays()
        if killed:
            return killed
        stopped = await self.stop_services(DISK)
        if stopped:
            ids = [service.id for service in stopped]
            self.idle_watch.pending.append(jobs_stopped_sentence(ids, self.config.disk_limit))
        return 0

    # -- services (sandbox/services.py) ------------------------------------------------
    def services(self) -> list[Service]:
        """Every service this sandbox started, running or ended, oldest first."""
        table = self.service_table
        return list(table.services.values()) if table is not None else []

    def on_service_end(self, callback: Callable[[Service], None]) -> None:
        """`callback(service)` once each service has ended, however it ended."""
        if self.service_table is not None:
            self.service_table.on_end = callback

    async def start_service(self, command: str, kind: str = "job") -> Service:
        """Start `command` in the workspace as a service; returns at once."""
        if self.service_table is None:
            raise SandboxError(NO_JOBS)
        self._need_layout()
        return await self.service_table.start(command, kind, gitstate.WORKSPACE)

    async def read_service(
        self, service_id: str, *, new: bool = True, most: int = READ_MOST
    ) -> tuple[Service, ServiceOutput]:
        """With `new`, what was not read yet (which counts as read now); else its last
        `most` bytes."""
        table = self._services()
        service = table.get(service_id)
        output = await table.read(service, service.read_upto if new else 0, most)
        if new:
            service.read_upto = output.end
        return service, output

    async def stop_service(self, service_id: str, how: str) -> Service:
        table = self._services()
        return await table.stop(table.get(service_id), how)

    async def stop_services(self, how: str) -> list[Service]:
        """Every service still running stopped (`how`: why); which they were."""
        return await self.service_table.stop_all(how) if self.service_table else []

    def _services(self) -> ServiceRunner:
        if self.service_table is None:
            raise SandboxError(NO_JOBS)
        return self.service_table

    # -- exec ------------------------------------------------------------------------
    async def exec(
        self, cmd: str, *, timeout: float | None = None, cwd: str | None = None
    ) -> ExecResult:
        layout = self._need_layout()
        limit = self.config.default_timeout_s if timeout is None else timeout
        workdir = gitstate.WORKSPACE
        if cwd:
            workdir = (
                f"{gitstate.WORKSPACE}/{safe_relpath(cwd)}" if cwd not in (".", "") else workdir
            )
        disk_limit = self.disk_limit
        name = f"exec-{next(self._counter)}.log"
        capture = OutputCapture(
            self.config.output_cap_bytes,
            layout.outputs / name,
            file_cap=min(disk_limit // 4, 64 << 20),
            shown_as=f"{gitstate.OUTPUTS}/{name} (page it with sed -n or grep)",
        )
        started = time.monotonic()
        stopped_by = ""
        self._changing(+1)  # from here on the files may change: no snapshot is taken meanwhile
        try:
            before = await asyncio.to_thread(self._scan, layout)
            run = self._run_command(cmd, limit, capture.feed, workdir)
            outcome = await _watched(run, layout.root, disk_limit, before.used)
        except quota.DiskQuotaHit as hit:
            outcome = RunOutcome(_KILLED_EXIT)
            stopped_by = self._disk_sentence(f"it had written {quota.human_bytes(hit.used)}")
        finally:
            self._changing(-1)
            text, truncated, full_path = capture.finish()
        if outcome.exit_code == _FILE_TOO_BIG_EXIT and not stopped_by:
            stopped_by = self._disk_sentence("a file it wrote reached that size")
        notes = self.idle_watch.take_pending()
        if outcome.oom_killed:
            notes.append(strays.oom_sentence(self.config.memory, outcome.exit_code))
        if outcome.strays:
            notes.append(strays.strays_sentence(outcome.strays))
        after = await asyncio.to_thread(self._scan, layout)
        self.idle_watch.settled = after.used
        left_out = after.big - before.big
        duration = time.monotonic() - started
        timed_out = outcome.deadline_hit or (
            outcome.exit_code in (_TIMEOUT_EXIT, _KILLED_EXIT)
            and duration >= limit * 0.95
            and not outcome.oom_killed
        )
        return ExecResult(
            exit_code=outcome.exit_code,
            output=text,
            total_bytes=capture.total,
            duration_s=duration,
            timed_out=timed_out,
            truncated=truncated,
            full_output_path=full_path,
            oom_killed=outcome.oom_killed,
            stopped_by=stopped_by,
            left_out=tuple(sorted(left_out)),
            notes=tuple(notes),
        )

    def _scan(self, layout: Layout) -> quota.Usage:
        """The state dir's disk usage, and the workspace's files too big for a diff."""
        mine = layout.upper if self.mode == "overlay" else layout.copy
        return quota.scan(layout.root, mine, gitstate.BIG_FILE_KB * 1024)

    @property
    def disk_limit(self) -> int:
        return parse_bytes(self.config.disk_limit)

    def _disk_sentence(self, what: str) -> str:
        return (
            f"kiln stopped the command: the workspace may use {self.config.disk_limit} of "
            f"disk ([sandbox] disk_limit) and {what}; delete what you do not need and "
            "write less."
        )

    async def probe(self, script: str, *, timeout: float = PROBE_TIMEOUT_S) -> tuple[int, str]:
        """A question kiln asks the sandbox that changes nothing (is a program there?): run
        as a command is (its environment, in the workspace, no input, stopped at `timeout`,
        what it left running killed), but with none of a command's bookkeeping: no output
        file, no watch of the disk, and the workspace's snapshot stays current. Its exit
        code and its output (the first PROBE_KEPT bytes)."""
        kept = bytearray()

        def keep(data: bytes) -> None:
            kept.extend(data[: PROBE_KEPT - len(kept)])

        self._need_layout()
        outcome = await self._run_command(script, timeout, keep, gitstate.WORKSPACE)
        return outcome.exit_code, kept.decode("utf-8", "replace")

    async def _script(
        self, script: str, env: dict[str, str] | None = None, *, check: bool = True
    ) -> tuple[int, bytes]:
        """Run one of kiln's own scripts; returns (exit code, stdout), stderr only for errors."""
        chunks: list[bytes] = []
        errors: list[bytes] = []
        outcome = await self._run(
            ["bash", "-c", script],
            chunks.append,
            cwd=gitstate.WORKSPACE,
            env={**gitstate.GIT_ENV, **(env or {})},
            deadline_s=600,
            err_sink=errors.append,
        )
        data = b"".join(chunks)
        if check and outcome.exit_code != 0:
            err = b"".join(errors).decode("utf-8", "replace").strip()
            detail = err.splitlines()[-1:] or [f"exit {outcome.exit_code}"]
            raise SandboxError(
                f"The sandbox's bookkeeping failed ({detail[0]}); close the session and start a new one."
            )
        return outcome.exit_code, data

    def _need_layout(self) -> Layout:
        if self.layout is None:
            raise SandboxError("The sandbox is not started; call start() first.")
        return self.layout

    def _changing(self, delta: int) -> None:
        """A command starts (+1) or ends (-1): any snapshot taken before is stale."""
        self._running += delta
        self._generation += 1

    # -- files -----------------------------------------------------------------------
    async def write_file(self, path: str, data: bytes) -> None:
        self._changing(+1)
        try:
            await self._write_file(path, data)
        finally:
            self._changing(-1)

    async def _write_file(self, path: str, data: bytes) -> None:
        raise NotImplementedError

    async def read_file(self, path: str) -> bytes:
        rel = safe_relpath(path)
        code, data = await self._script(
            f"cat -- {shlex.quote(rel)} 2>/dev/null || exit 44", check=False
        )
        if code == 44:
            raise FileNotFoundError(f"{rel} does not exist in the workspace")
        return data

    # -- git-backed state ------------------------------------------------------------
    # Each of these writes kiln's git index: one at a time, so each first lets a snapshot
    # taken in the background (snapshot_soon) end.
    async def _take_baseline(self) -> None:
        await self._background_snapshot_done()
        async with self._index:
            _, out = await self._script(gitstate.baseline_script())
        self.baseline = out.decode().strip().splitlines()[-1]
        self._snapshot = _Snapshot(self._generation, "", (), "")  # nothing changed yet

    async def rebaseline(self) -> None:
        """The workspace as it is now becomes the baseline: its changes reached the
        repository (an apply), so later diffs hold only what came after."""
        await self._take_baseline()

    async def diff(self) -> str:
        return (await self._current()).diff

    async def changed_files(self) -> list[str]:
        return list((await self._current()).paths)

    def snapshot_soon(self) -> None:
        """Nothing is asked of the workspace for a while (the model is thinking): take its
        snapshot meanwhile, so the diff asked next (the end of a run's, the next step's)
        is ready. Nothing happens when the snapshot is current or a command runs."""
        if self._running or self._current_snapshot() or self._snapshotting is not None:
            return
        if self.baseline is None:  # not started
            return
        task = asyncio.ensure_future(self._take_snapshot())
        task.add_done_callback(self._background_snapshot_ended)
        self._snapshotting = task

    def _background_snapshot_ended(self, task: asyncio.Task[_Snapshot]) -> None:
        self._snapshotting = None
        if not task.cancelled():
            task.exception()  # asked again in the foreground, where a failure is reported

    async def _background_snapshot_done(self) -> None:
        if self._snapshotting is not None:
            await asyncio.wait([self._snapshotting])

    def _stop_background_snapshot(self) -> None:
        if self._snapshotting is not None:
            self._snapshotting.cancel()

    def _current_snapshot(self) -> _Snapshot | None:
        """The last snapshot, while nothing can have changed the workspace since."""
        snapshot = self._snapshot
        if snapshot is None or snapshot.generation != self._generation:
            return None
        return snapshot

    async def _current(self) -> _Snapshot:
        """The workspace's tree, changed paths and diff; asked again only after something
        may have changed it (the loop asks all three after every step, the end of a run
        asks for the diff three times)."""
        await self._background_snapshot_done()
        return self._current_snapshot() or await self._take_snapshot()

    async def _take_snapshot(self) -> _Snapshot:
        async with self._index:
            # A caller that waited here may find the snapshot another one just took.
            if (current := self._current_snapshot()) is not None:
                return current
            generation, quiet = self._generation, self._running == 0
            any_big = self._may_hold_big_files()
            _, out = await self._script(gitstate.snapshot_script(any_big=any_big))
            tree, paths, diff = gitstate.read_snapshot(out)
            snapshot = _Snapshot(
                generation,
                tree,
                tuple(p.decode("utf-8", "surrogateescape") for p in paths),
                diff.decode("utf-8", "surrogateescape"),
            )
            # Kept only if no command ran meanwhile: one still running may change files later.
            still = quiet and self._running == 0 and generation == self._generation
            self._snapshot = snapshot if still else None
            return snapshot

    def _may_hold_big_files(self) -> bool:
        """Whether the workspace may hold a file too big for a diff. Over an overlay, every
        file a command wrote or changed is in its upper dir: kiln looks through that on the
        host when it holds only a few entries (the repository's own files were weighed by
        the baseline, and the add passes over those that did not change). A bigger upper
        dir, or a copy, is looked through by the snapshot's own `find`."""
        layout = self._need_layout()
        if self.mode != "overlay":
            return True
        limit = gitstate.BIG_FILE_KB * 1024
        return quota.holds_big_file(layout.upper, limit, SMALL_UPPER) is not False

    def checkpoint(self, label: str) -> Coroutine[Any, Any, str]:
        """Commit the workspace as it is at this call when its snapshot is current (the
        snapshot's tree): a command started right after, such as the tests after an edit,
        then runs beside the commit without changing what it holds. Otherwise the commit
        adds the workspace as it finds it."""
        snapshot = None if self._snapshotting else self._current_snapshot()
        return self._checkpoint(label, snapshot.tree if snapshot else "")

    async def _checkpoint(self, label: str, tree: str) -> str:
        await self._background_snapshot_done()
        if not tree and (snapshot := self._current_snapshot()):  # one taken meanwhile
            tree = snapshot.tree
        env = {"KILN_LABEL": label or "-"}
        async with self._index:
            if tree:
                script, env = gitstate.commit_tree_script(), {**env, "KILN_TREE": tree}
            else:
                script = gitstate.checkpoint_script()
            _, out = await self._script(script, env)
        self.last_checkpoint = out.decode().strip().splitlines()[-1]
        return self.last_checkpoint

    async def restore(self, ref: str) -> None:
        self._changing(+1)
        try:
            await self._restore(ref)
        finally:
            self._changing(-1)

    async def _restore(self, ref: str) -> None:
        await self._background_snapshot_done()
        async with self._index:
            code, out = await self._script(
                gitstate.restore_script(), {"KILN_REF": ref}, check=False
            )
        if code == 3:
            raise SandboxError(f"There is no checkpoint {ref}; pick one returned by checkpoint().")
        if code != 0:
            detail = out.decode("utf-8", "replace").strip()[-200:] or f"exit {code}"
            raise SandboxError(
                f"Restoring checkpoint {ref} failed ({detail}); start a new session."
            )


def _ignore(_line: str) -> None:
    pass


def _nothing() -> None:
    pass


# How often usage is measured: at least this often, and never spending more than a tenth
# of the time walking the tree (a workspace of 100k files takes a while to walk).
_MIN_INTERVAL_S = 0.1
_WALK_SHARE = 0.1


async def _watched(work: Awaitable[T], root: Path, limit: int, start: int) -> T:
    """Await `work`; cancel it and raise DiskQuotaHit once `root` grows past `limit`.

    Only growth from `start` counts: a workspace already over the limit (a command was
    stopped there) may still run commands that delete or only read.
    """
    task = asyncio.ensure_future(work)
    interval = _MIN_INTERVAL_S
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=interval)
            if done:
                return task.result()
            began = time.monotonic()
            used = (await asyncio.to_thread(quota.scan, root)).used
            interval = max(_MIN_INTERVAL_S, (time.monotonic() - began) / _WALK_SHARE)
            if used > limit and used > start:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
                raise quota.DiskQuotaHit(used)
    finally:
        if not task.done():  # cancelled from outside: the command goes too
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
