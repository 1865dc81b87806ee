"""The command server kiln starts inside a container: one process that runs every command.

`docker exec` costs a round trip through the engine, containerd and runc for each command
(about 50 ms); this server is started once per container with one such exec, and then
spawns each command itself over the exec's attached stdin/stdout (a few ms). It runs as
the sandbox user with the container's environment, so a command sees exactly what it
would see from `docker exec`; the per-command timeout and process-group kill are still
done by the wrapper kiln puts around every command (sandbox.common.command_argv).

A process can leave its command's process group (`setsid`, a double fork) and outlive it.
Such a process ends up a child of the container's init; everything kiln keeps descends
from the container's main process (this server among it) or from a `docker exec`. So when
a command asked for a sweep ends, every other process under init is killed: a stray.

This file is sent as `python3 -I -S -c SOURCE`: stdlib only, no kiln imports, Python 3.7+.

Requests arrive on stdin, one JSON object per line:
  {"id": N, "argv": [...], "cwd": /workspace, "env": {...}, "stdin": <base64>|null,
   "sweep": true|false}   sweep: kill the strays once the command ends
  {"kill": N}    SIGKILL the process group of request N
Replies on stdout are frames: a 9-byte header (id: u32, kind: u8, length: u32) + payload.
  kind 4: the request was taken (before anything of it runs); 1: stdout bytes;
  2: stderr bytes; 5: ready (id 0, at start);
  3: exit status (i32), strays killed (u32), the container's OOM kills so far (i32, -1: unknown)
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import selectors
import signal
import struct
import subprocess
import sys
from collections.abc import Iterator
from typing import IO, cast

OUT, ERR, EXIT, TAKEN, READY = 1, 2, 3, 4, 5
CHUNK = 65536


def send(rid: int, kind: int, data: bytes = b"") -> None:
    view = memoryview(struct.pack(">IBI", rid, kind, len(data)) + data)
    while view:
        try:
            view = view[os.write(1, view) :]
        except BlockingIOError:  # stdout shares a non-blocking file with stdin
            with selectors.DefaultSelector() as waiter:
                waiter.register(1, selectors.EVENT_WRITE)
                waiter.select()


class Job:
    def __init__(
        self, rid: int, proc: subprocess.Popen[bytes], data: bytes | None, sweep: bool
    ) -> None:
        self.rid = rid
        self.proc = proc
        self.data = data or b""
        self.sweep = sweep


class Server:
    def __init__(self) -> None:
        self.sel = selectors.DefaultSelector()
        self.jobs: dict[int, Job] = {}
        self.buf = b""
        wake_r, wake_w = os.pipe()
        for fd in (0, wake_r, wake_w):
            os.set_blocking(fd, False)
        # SIGCHLD makes select() return: a finished command is noticed at once.
        signal.set_wakeup_fd(wake_w)
        signal.signal(signal.SIGCHLD, lambda signum, frame: None)
        # Started as a background job, the server inherits SIGINT/SIGQUIT ignored; the
        # commands it starts must get them as any process would.
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGQUIT, signal.SIG_DFL)
        self.wake_r = wake_r
        self.sel.register(0, selectors.EVENT_READ, ("requests", 0))
        self.sel.register(wake_r, selectors.EVENT_READ, ("wake", 0))

    def serve(self) -> None:
        send(0, READY, b"kiln-exec 1")
        while True:
            for key, _events in self.sel.select():
                what, rid = key.data
                if what == "requests":
                    if not self.read_requests():
                        return
                elif what == "wake":
                    self.drain(self.wake_r)
                elif what == "stdin":
                    self.feed_stdin(rid, cast(IO[bytes], key.fileobj))
                else:
                    self.pump(rid, cast(IO[bytes], key.fileobj), OUT if what == "out" else ERR)
            self.reap()

    def read_requests(self) -> bool:
        try:
            data = os.read(0, CHUNK)
        except BlockingIOError:
            return True
        if not data:  # kiln went away: nothing may keep running on its behalf
            for job in self.jobs.values():
                kill(job)
            return False
        self.buf += data
        while b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            self.handle(json.loads(line))
        return True

    def handle(self, req: dict) -> None:
        if "kill" in req:
            job = self.jobs.get(req["kill"])
            if job is not None:
                kill(job)
            return
        rid = req["id"]
        send(rid, TAKEN)  # from here on, kiln must not send this request again
        env = dict(os.environ)
        env.update(req.get("env") or {})
        data = base64.b64decode(req["stdin"]) if req.get("stdin") is not None else None
        try:
            proc = subprocess.Popen(
                req["argv"],
                cwd=req.get("cwd") or None,
                env=env,
                stdin=subprocess.PIPE if data is not None else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except OSError as exc:  # no such directory, or no process left under the pids limit
            send(rid, ERR, f"kiln: could not start the command: {exc}\n".encode())
            status = 127 if isinstance(exc, FileNotFoundError) else 126
            send(rid, EXIT, struct.pack(">iIi", status, 0, oom_kills()))
            return
        job = Job(rid, proc, data, bool(req.get("sweep")))
        self.jobs[rid] = job
        for stream, what in ((proc.stdout, "out"), (proc.stderr, "err")):
            assert stream is not None
            os.set_blocking(stream.fileno(), False)
            self.sel.register(stream, selectors.EVENT_READ, (what, rid))
        if proc.stdin is not None:
            os.set_blocking(proc.stdin.fileno(), False)
            self.sel.register(proc.stdin, selectors.EVENT_WRITE, ("stdin", rid))

    def feed_stdin(self, rid: int, pipe: IO[bytes]) -> None:
        job = self.jobs[rid]
        fd = pipe.fileno()
        try:
            job.data = job.data[os.write(fd, job.data[:CHUNK]) :]
        except BlockingIOError:
            return
        except OSError:  # the command stopped reading
            job.data = b""
        if not job.data:
            self.sel.unregister(pipe)
            pipe.close()

    def pump(self, rid: int, pipe: IO[bytes], kind: int) -> None:
        """Forward what is readable now; close the pipe at its end."""
        try:
            data = os.read(pipe.fileno(), CHUNK)
        except BlockingIOError:
            return
        if data:
            send(rid, kind, data)
            return
        self.sel.unregister(pipe)
        pipe.close()

    def reap(self) -> None:
        """Finish every request whose command exited (its output read to the end first)."""
        for rid, job in list(self.jobs.items()):
            code = job.proc.poll()
            if code is None:
                continue
            for pipe, kind in ((job.proc.stdout, OUT), (job.proc.stderr, ERR)):
                if pipe is not None and not pipe.closed:
                    self.finish_pipe(rid, pipe, kind)
            if job.proc.stdin is not None and not job.proc.stdin.closed:
                self.sel.unregister(job.proc.stdin)
                job.proc.stdin.close()
            del self.jobs[rid]
            strays = sweep() if job.sweep else 0
            status = code if code >= 0 else 128 - code
            send(rid, EXIT, struct.pack(">iIi", status, strays, oom_kills()))

    def finish_pipe(self, rid: int, pipe: IO[bytes], kind: int) -> None:
        """Forward what the command wrote before it exited, then close: a background child
        still holding the pipe open does not keep the request open."""
        fd = pipe.fileno()
        try:
            while True:
                data = os.read(fd, CHUNK)
                if not data:
                    break
                send(rid, kind, data)
        except BlockingIOError:
            pass
        self.sel.unregister(pipe)
        pipe.close()

    @staticmethod
    def drain(fd: int) -> None:
        try:
            while os.read(fd, 512):
                pass
        except BlockingIOError:
            pass


def kill(job: Job) -> None:
    """SIGKILL everything the command started: its session holds the wrapper and the
    process group `timeout` made for the command itself."""
    session = job.proc.pid
    for pid, fields in proc_stats():
        if int(fields[3]) == session:  # state, ppid, pgrp, session
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.killpg(session, signal.SIGKILL)


def proc_stats() -> Iterator[tuple[int, list[bytes]]]:
    """(pid, the fields of /proc/PID/stat after the name) of every process in the container."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 19:
            yield int(entry), fields


def processes() -> dict[int, tuple[int, bytes, int]]:
    """pid -> (parent pid, state, start time) of every process in the container."""
    return {pid: (int(f[1]), f[0], int(f[19])) for pid, f in proc_stats()}


def strays(table: dict[int, tuple[int, bytes, int]]) -> list[int]:
    """Live processes that hang under init but not from its first child (the container's
    main process): what is left of a command that left its process group. A process whose
    line of parents ends at pid 0 came from a `docker exec` (kiln's own) and is kept."""
    under_init = [pid for pid, (parent, _state, _start) in table.items() if parent == 1]
    if not under_init:
        return []
    main = min(under_init, key=lambda pid: (table[pid][2], pid))
    found = []
    for pid, (parent, state, _start) in table.items():
        if pid == 1 or state in (b"Z", b"X"):
            continue
        top, seen = pid, 0
        while parent not in (0, 1) and parent in table and seen < len(table):
            top, parent, seen = parent, table[parent][0], seen + 1
        if parent == 1 and top != main:
            found.append(pid)
    return found


def sweep() -> int:
    """Kill every stray; how many there were. They are stopped first, round after round
    until no new one appears, so none can fork another between the look and the kill."""
    stopped: set[int] = set()
    for _round in range(50):
        new = [pid for pid in strays(processes()) if pid not in stopped]
        if not new:
            break
        for pid in new:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGSTOP)
        stopped.update(new)
    for pid in stopped:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return len(stopped)


def oom_kills() -> int:
    """How many processes the kernel's OOM killer has killed in this container (-1: unknown)."""
    for path in ("/sys/fs/cgroup/memory.events", "/sys/fs/cgroup/memory/memory.oom_control"):
        try:
            with open(path) as events:
                for line in events:
                    name, _, value = line.partition(" ")
                    if name == "oom_kill":
                        return int(value)
        except (OSError, ValueError):
            continue
    return -1


if __name__ == "__main__":
    try:
        Server().serve()
    except BrokenPipeError:  # kiln's end of the connection closed
        sys.exit(0)
