"""The command server kiln starts inside a container: one process that runs every command.

`docker exec` costs a round trip through the engine, containerd and runc for each command
(about 50 ms); this server is started once per container with one such exec, and then
spawns each command itself over the exec's attached stdin/stdout (a few ms). It runs as
the sandbox user with the container's environment, so a command sees exactly what it
would see from `docker exec`. It also does for a command what kiln's wrapper does
elsewhere (sandbox.common.command_argv): no input, stderr joined to stdout, a time limit
(TERM to its process group, KILL a second later, exit 124), and whatever it left running
in its session killed when it ends; the wrapper's shell and `timeout` cost every command
10 ms of the container's time under load (6 ms of CPU against 2.6 for bash alone).

A process can leave its command's process group (`setsid`, a double fork) and outlive it.
Such a process ends up a child of the container's init; everything kiln keeps descends
from the container's main process (this server among it) or from a `docker exec`. So when
a command asked for a sweep ends, every other process under init is killed: a stray.

This file is sent as `python3 -I -S -c SOURCE`: stdlib only, no kiln imports. A session's
first command waits for it to start, so it imports only modules built into the interpreter
(os, sys, marshal, select, _signal, errno): json, base64, subprocess, selectors, typing and
the signal module's enums made its start take 25 ms instead of 12 (python3 alone: 7 ms;
the default image, measured under load). Python 3.7+.

Requests arrive on stdin as frames: a length (u32), then a dict in marshal's format (kiln
writes them; kiln itself never unmarshals anything that comes out of a container):
  {"id": N, "argv": [...], "cwd": /workspace, "env": {...}, "stdin": bytes|None,
   "limit": seconds|None, "sweep": true|false}
      limit: a command (above) stopped after that long; sweep: kill the strays at its end
  {"kill": N}    SIGKILL the process group of request N
  {"id": N, "argv": [...], "cwd", "env", "service": path, "keep": bytes}
      a service (a job): no limit, its output not sent but kept in `path`, its last
      `keep` bytes at most (see RingLog); the request ends when it exits
  {"stop": N}    TERM service N's process group, KILL it a second later
  {"id": N, "peek": S, "since": offset, "most": bytes}   service S's output from `since`
      (its last `most` bytes at most) as stdout, then on stderr one ASCII line: the offset
      of what was sent, the bytes written in all, 1 if it runs, its listening TCP ports
      (comma-separated); exit 0, or 44 when there is no such service
  {"id": N, "argv": [...], "cwd", "env", "attach": true}
      an attached process (a language server): its stdin open until kiln ends it, its
      stdout and stderr sent apart as they come, no limit; the request ends when it exits
  {"feed": N, "data": bytes}   more input for attached process N, written in order
  {"eof": N}    attached process N's input ends once what was fed is written
  {"id": N, "read": path}   the file's bytes as stdout, exit 0; 44 when it cannot be read
  {"id": N, "write": path, "stdin": bytes}   written as `mkdir -p` and `cat >` would;
      exit 0, or 1 and why on stderr (no process is started for either)
Replies on stdout are frames: a 9-byte header (id: u32, kind: u8, length: u32) + payload.
  kind 4: the request was taken (before anything of it runs); 1: stdout bytes;
  2: stderr bytes; 5: ready (id 0, at start: "kiln-exec 1", a newline, then the network
      interfaces the server sees, one per line, so kiln checks them without a command);
  3: exit status (i32), strays killed (u32), the container's OOM kills so far (i32, -1: unknown)

A service is kept, and so is what it starts, while it runs: the sweep leaves alone every
process in a live service's session (a double fork that stays in it included); a process
that left it (`setsid`) is a stray like any other, and so is all of a service once it
ended. While a service runs and no command does, the sweep also runs every SWEEP_EVERY_S
seconds (its kills counted in the next command's exit status): an escapee from a service
does not wait for a command to end.
"""

from __future__ import annotations

import errno
import marshal
import os
import select
import sys
import time

try:
    import _signal as signal  # what the signal module wraps, without its enums (4 ms)
except ImportError:  # an interpreter that has only the module
    import signal

TYPE_CHECKING = False  # typing itself is an import the server's start would pay for
if TYPE_CHECKING:
    from collections.abc import Callable

OUT, ERR, EXIT, TAKEN, READY = 1, 2, 3, 4, 5
TIMED_OUT = 124
CHUNK = 65536
SWEEP_EVERY_S = 2.0
READ = select.POLLIN | select.POLLHUP | select.POLLERR


def send(rid: int, kind: int, data: bytes = b"") -> None:
    header = rid.to_bytes(4, "big") + bytes((kind,)) + len(data).to_bytes(4, "big")
    view = memoryview(header + data)
    while view:
        try:
            view = view[os.write(1, view) :]
        except BlockingIOError:  # stdout shares a non-blocking file with stdin
            waiter = select.poll()
            waiter.register(1, select.POLLOUT)
            waiter.poll()


def exit_status(code: int, strays: int, oom: int) -> bytes:
    return (
        code.to_bytes(4, "big", signed=True)
        + strays.to_bytes(4, "big")
        + oom.to_bytes(4, "big", signed=True)
    )


class Job:
    def __init__(self, pid: int, data: bytes | None) -> None:
        self.pid = pid
        self.data = memoryview(data or b"")  # input still to write
        self.sweep = False
        self.command = False  # what exec() runs: limited, its session killed at its end
        self.deadline: float | None = None  # TERM then (time.monotonic())
        self.kill_at: float | None = None  # KILL then, once TERM was sent
        self.timed_out = False
        self.outputs: dict[int, int] = {}  # the command's open output pipes: fd -> OUT or ERR
        self.stdin: int | None = None  # its input pipe, while input is left to write
        self.attached = False  # an attached process: its input open until kiln ends it
        self.input_ends = False  # kiln ended it: close the pipe once `data` is written
        self.log: RingLog | None = None  # a service's: where its output goes


class RingLog:
    """A service's output on disk, its last part only, however much it writes: two files
    of at most half the cap each, the older one `path`.1, so no byte is ever copied."""

    def __init__(self, path: str, keep: int) -> None:
        self.path, self.older = path, path + ".1"
        self.half = max(keep // 2, 4096)
        self.fd = -1
        self.size = 0  # bytes in `path`
        self.older_size = 0  # bytes in `path`.1
        self.total = 0  # bytes written in all (the offsets kiln reads from count these)
        quietly(os.remove, self.older)
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)

    def write(self, data: bytes) -> None:
        while data and self.fd >= 0:
            if self.size >= self.half:  # the older half goes; the current one becomes it
                os.close(self.fd)
                self.fd = -1
                os.replace(self.path, self.older)
                self.older_size, self.size = self.size, 0
                self.fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            piece = data[: self.half - self.size]
            written = os.write(self.fd, piece)
            self.size += written
            self.total += written
            data = data[written:]

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def read(self, since: int, most: int) -> tuple[int, bytes]:
        """(offset, bytes) of what is kept from `since` on, its last `most` bytes at most."""
        current = self.total - self.size  # where `path` begins
        begin = max(since, current - self.older_size, self.total - most, 0)
        data, at = b"", begin
        older = (self.older, current - self.older_size, self.older_size)
        for name, first, size in (older, (self.path, current, self.size)):
            if not first <= at < first + size:
                continue
            try:
                with open(name, "rb") as kept:
                    kept.seek(at - first)
                    piece = kept.read(first + size - at)
            except OSError:  # removed or cut by a command: what is left is what it has
                piece = b""
            data, at = data + piece, at + len(piece)
        return begin, data


class Server:
    def __init__(self) -> None:
        self.poll = select.poll()
        self.jobs: dict[int, Job] = {}
        self.where: dict[int, tuple[str, int]] = {}  # fd -> (what it is, request id)
        self.buf = bytearray()
        self.logs: dict[int, RingLog] = {}  # every service's log, kept after it ends
        self.swept = 0  # strays killed while no command ran, told with the next one
        self.next_sweep = 0.0
        # Only the standard streams reach a command (as Popen's close_fds did).
        for name in os.listdir("/proc/self/fd"):
            if int(name) > 2:  # the listing's own descriptor is closed by now: quietly
                quietly(os.set_inheritable, int(name), False)
        wake_r, wake_w = os.pipe()
        for fd in (0, wake_r, wake_w):
            os.set_blocking(fd, False)
        # SIGCHLD makes poll() return: a finished command is noticed at once.
        signal.set_wakeup_fd(wake_w)
        signal.signal(signal.SIGCHLD, _ignore)
        # Started as a background job, the server inherits SIGINT/SIGQUIT ignored, and
        # Python ignores SIGPIPE and SIGXFSZ (the disk limit's signal): every command
        # starts with each at its default, as any process would.
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGQUIT, signal.SIG_DFL)
        self.reset = [n for n in range(1, signal.NSIG) if signal.getsignal(n) == signal.SIG_IGN]
        self.wake_r = wake_r
        # HOME lives on the container's /tmp: made here, no command has to make it.
        quietly(os.makedirs, os.environ.get("HOME") or "/tmp", 0o755, True)
        self.watch(0, "requests", 0)
        self.watch(wake_r, "wake", 0)

    def watch(self, fd: int, what: str, rid: int, events: int = READ) -> None:
        self.poll.register(fd, events)
        self.where[fd] = (what, rid)

    def close(self, fd: int) -> None:
        self.unwatch(fd)
        os.close(fd)

    def unwatch(self, fd: int) -> None:
        if self.where.pop(fd, None) is not None:
            self.poll.unregister(fd)

    def serve(self) -> None:
        try:
            interfaces = sorted(os.listdir("/sys/class/net"))
        except OSError:
            interfaces = ["?"]  # unknown: kiln then asks with a command
        send(0, READY, "\n".join(["kiln-exec 1", *interfaces]).encode())
        while True:
            for fd, _events in self.poll.poll(self.until_next_limit()):
                what, rid = self.where.get(fd, ("", 0))  # "": closed since the poll
                if what == "requests":
                    if not self.read_requests():
                        return
                elif what == "wake":
                    self.drain(self.wake_r)
                elif what == "stdin":
                    self.feed_stdin(rid, fd)
                elif what:
                    self.pump(rid, fd)
            self.reap()
            self.enforce_limits()
            self.sweep_beside_services()

    def until_next_limit(self) -> int | None:
        """Milliseconds until a command's time is up or the next sweep beside a service
        is due (None: nothing is limited and no service runs)."""
        due = [t for job in self.jobs.values() for t in (job.deadline, job.kill_at) if t]
        if self.services():
            due.append(self.next_sweep)
        return None if not due else max(0, int((min(due) - time.monotonic()) * 1000) + 1)

    def services(self) -> set[int]:
        """The sessions of the services still running: the sweep leaves them alone."""
        return {job.pid for job in self.jobs.values() if job.log is not None}

    def sweep_beside_services(self) -> None:
        """While services run and no command does: a command's strays are its own until
        it ends (`(setsid srv &); curl ...` works within one command), then swept."""
        if not self.services() or time.monotonic() < self.next_sweep:
            return
        self.next_sweep = time.monotonic() + SWEEP_EVERY_S
        if not any(job.command and job.log is None for job in self.jobs.values()):
            self.swept += sweep(self.services())

    def enforce_limits(self) -> None:
        """As `timeout -k 1 LIMIT` would: TERM the command's process group when its time is
        up, KILL it a second later if it still runs."""
        now = time.monotonic()
        for job in self.jobs.values():
            if job.deadline is not None and job.deadline <= now:
                job.deadline, job.kill_at, job.timed_out = None, now + 1, True
                quietly(os.killpg, job.pid, signal.SIGTERM)
            elif job.kill_at is not None and job.kill_at <= now:
                job.kill_at = None
                quietly(os.killpg, job.pid, signal.SIGKILL)

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
        while len(self.buf) >= 4:
            size = int.from_bytes(self.buf[:4], "big")
            if len(self.buf) < 4 + size:
                break
            request = marshal.loads(bytes(self.buf[4 : 4 + size]))
            del self.buf[: 4 + size]
            self.handle(request)
        return True

    def handle(self, req: dict) -> None:
        if "kill" in req:
            job = self.jobs.get(req["kill"])
            if job is not None:
                kill(job)
            return
        if "feed" in req or "eof" in req:
            self.more_input(req)
            return
        if "stop" in req:
            job = self.jobs.get(req["stop"])
            if job is not None and job.log is not None and job.kill_at is None:
                quietly(os.killpg, job.pid, signal.SIGTERM)
                job.kill_at = time.monotonic() + 1
            return
        rid = req["id"]
        send(rid, TAKEN)  # from here on, kiln must not send this request again
        if "peek" in req:
            self.peek(rid, req["peek"], req.get("since") or 0, req.get("most") or CHUNK)
            return
        if "read" in req:
            send(rid, EXIT, exit_status(read_file(rid, req["read"]), 0, -1))
            return
        if "write" in req:
            why = write_file(req["write"], req["stdin"])
            if why:
                send(rid, ERR, why)
            send(rid, EXIT, exit_status(1 if why else 0, 0, -1))
            return
        env = dict(os.environ)
        env.update(req.get("env") or {})
        data = req.get("stdin")
        # A command (what exec() runs: it has a limit) starts exactly as from `docker exec`;
        # kiln's own scripts (git, cat) start the cheaper way (see spawn_fast).
        limit = req.get("limit")
        service = req.get("service")
        attached = bool(req.get("attach"))
        command = limit is not None or service is not None
        try:
            log = RingLog(service, req.get("keep") or 2 << 20) if service else None
            job = self.spawn(
                rid, req["argv"], req.get("cwd") or "/", env, b"" if attached else data, command,
                attached,
            )  # fmt: skip
        except OSError as exc:  # no such directory, or no process left under the pids limit
            send(rid, ERR, f"kiln: could not start the command: {exc}\n".encode())
            status = 127 if isinstance(exc, FileNotFoundError) else 126
            send(rid, EXIT, exit_status(status, 0, oom_kills()))
            return
        job.sweep = bool(req.get("sweep"))
        job.attached = attached
        if limit is not None:
            job.command, job.deadline = True, time.monotonic() + limit
        if log is not None:
            job.command, job.log = True, log
            self.logs[rid] = log
            self.next_sweep = time.monotonic() + SWEEP_EVERY_S
        self.jobs[rid] = job

    def peek(self, rid: int, service: int, since: int, most: int) -> None:
        log = self.logs.get(service)
        if log is None:
            send(rid, EXIT, exit_status(44, 0, -1))
            return
        begin, data = log.read(since, most)
        if data:
            send(rid, OUT, data)
        job = self.jobs.get(service)
        ports = listening_ports(job.pid) if job is not None else []
        line = f"{begin} {log.total} {int(job is not None)} {','.join(map(str, ports))}"
        send(rid, ERR, line.encode())
        send(rid, EXIT, exit_status(0, 0, -1))

    def spawn(
        self, rid: int, argv: list[str], cwd: str, env: dict[str, str], data: bytes | None,
        command: bool, attached: bool = False,
    ) -> Job:  # fmt: skip
        """Start argv in a session of its own, its output on two pipes (a command's stderr
        on its stdout's, so the two stay in the order they were written), its input on a
        third (or /dev/null). A command and an attached process start as from `docker exec`."""
        program = find_program(argv[0], env)
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe() if not command else (-1, out_w)
        in_r, in_w = os.pipe() if data is not None else (-1, -1)
        ours, theirs = [out_r, err_r, in_w], [out_w, err_w if not command else -1, in_r]
        start = fork_exec if command or attached or not hasattr(os, "posix_spawn") else spawn_fast
        try:
            pid = start(program, argv, env, cwd, (in_r, out_w, err_w), self.reset)
        except BaseException:
            for fd in ours:
                if fd >= 0:
                    os.close(fd)
            raise
        finally:
            for fd in theirs:
                if fd >= 0:
                    os.close(fd)
        job = Job(pid, data)
        for fd, kind in ((out_r, OUT), (err_r, ERR)):
            if fd < 0:
                continue
            os.set_blocking(fd, False)
            job.outputs[fd] = kind
            self.watch(fd, "out", rid)
        if data is not None:
            os.set_blocking(in_w, False)
            job.stdin = in_w
            self.watch(in_w, "stdin", rid, select.POLLOUT | select.POLLERR)
        return job

    def feed_stdin(self, rid: int, fd: int) -> None:
        job = self.jobs[rid]
        try:
            job.data = job.data[os.write(fd, job.data[:CHUNK]) :]
        except BlockingIOError:
            return
        except OSError:  # the command stopped reading
            job.data, job.input_ends = memoryview(b""), True
        if job.data:
            return
        if job.attached and not job.input_ends:  # open for what kiln sends next
            self.unwatch(fd)
            return
        self.close(fd)
        job.stdin = None

    def more_input(self, req: dict) -> None:
        """Input for an attached process (`feed`), or the end of it (`eof`)."""
        rid = req["feed"] if "feed" in req else req["eof"]
        job = self.jobs.get(rid)
        if job is None or not job.attached or job.stdin is None:
            return  # it ended, or its input did
        if "eof" in req:
            job.input_ends = True
        else:
            job.data = memoryview(bytes(job.data) + req["data"])
        if job.stdin not in self.where:
            self.watch(job.stdin, "stdin", rid, select.POLLOUT | select.POLLERR)

    def pump(self, rid: int, fd: int) -> None:
        """Forward what is readable now; close the pipe at its end."""
        job = self.jobs[rid]
        try:
            data = os.read(fd, CHUNK)
        except BlockingIOError:
            return
        if data:
            self.forward(rid, job, job.outputs[fd], data)
            return
        del job.outputs[fd]
        self.close(fd)

    @staticmethod
    def forward(rid: int, job: Job, kind: int, data: bytes) -> None:
        """A command's output goes to kiln; a service's to its log (a full disk: dropped)."""
        if job.log is None:
            send(rid, kind, data)
            return
        try:
            job.log.write(data)
        except OSError:
            job.log.close()

    def reap(self) -> None:
        """Finish every request whose command exited (its output read to the end first)."""
        for rid, job in list(self.jobs.items()):
            pid, status = os.waitpid(job.pid, os.WNOHANG)
            if pid == 0:
                continue
            if job.command or job.attached:  # what it left running goes with it
                kill(job)
            for fd, kind in list(job.outputs.items()):
                self.finish_pipe(rid, job, fd, kind)
            job.outputs.clear()
            if job.stdin is not None:
                self.close(job.stdin)
                job.stdin = None
            if job.log is not None:
                job.log.close()
            del self.jobs[rid]
            strays = sweep(self.services()) if job.sweep else 0
            if job.command and job.log is None:
                strays, self.swept = strays + self.swept, 0
            code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)
            if job.timed_out:
                code = TIMED_OUT  # `timeout`'s own exit status
            send(rid, EXIT, exit_status(code, strays, oom_kills()))

    def finish_pipe(self, rid: int, job: Job, fd: int, kind: int) -> None:
        """Forward what the command wrote before it exited, then close: a background child
        still holding the pipe open does not keep the request open."""
        try:
            while True:
                data = os.read(fd, CHUNK)
                if not data:
                    break
                self.forward(rid, job, kind, data)
        except BlockingIOError:
            pass
        self.close(fd)

    @staticmethod
    def drain(fd: int) -> None:
        try:
            while os.read(fd, 512):
                pass
        except BlockingIOError:
            pass


Streams = tuple[int, int, int]  # the command's stdin (-1: /dev/null), stdout, stderr


def fork_exec(
    program: str, argv: list[str], env: dict[str, str], cwd: str, streams: Streams,
    reset: list[int],
) -> int:  # fmt: skip
    """Start a command as Popen does: fork, then in the child a session of its own, its
    directory and streams, every signal the server ignores back at its default, exec.
    What failed (errno, and whether it was the directory) comes back on a pipe that a
    successful exec closes."""
    failed_r, failed_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: nothing here may return into the server's loop
        step = b"cwd"
        try:
            os.setsid()
            os.chdir(cwd)
            step = b"exec"
            stdin = streams[0] if streams[0] >= 0 else os.open("/dev/null", os.O_RDONLY)
            for target, fd in enumerate((stdin, streams[1], streams[2])):
                os.dup2(fd, target)
            for signum in reset:
                signal.signal(signum, signal.SIG_DFL)
            os.execve(program, argv, env)
        except OSError as exc:
            os.write(failed_w, b"%d %s" % (exc.errno or errno.EINVAL, step))
        finally:
            os._exit(127)
    os.close(failed_w)
    try:
        failed = os.read(failed_r, 32)
    finally:
        os.close(failed_r)
    if failed:
        os.waitpid(pid, 0)
        code, step = failed.split()
        raise OSError(int(code), os.strerror(int(code)), cwd if step == b"cwd" else program)
    return pid


def spawn_fast(
    program: str, argv: list[str], env: dict[str, str], cwd: str, streams: Streams,
    reset: list[int],
) -> int:  # fmt: skip
    """Start one of kiln's own scripts with posix_spawn (vfork): a third of fork_exec's
    time. glibc before 2.38 leaves its two internal signals (32, 33) ignored in what it
    starts, which git and cat never notice but a command must not inherit. posix_spawn
    has no working directory of its own: the child starts in the server's, which is
    `cwd` for the call (one thread: nothing else runs meanwhile)."""
    stdin, stdout, stderr = streams
    actions: list[tuple[object, ...]] = [
        (os.POSIX_SPAWN_DUP2, stdout, 1),
        (os.POSIX_SPAWN_DUP2, stderr, 2),
        (os.POSIX_SPAWN_DUP2, stdin, 0)
        if stdin >= 0
        else (os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
    ]
    os.chdir(cwd)
    try:
        return os.posix_spawn(
            program, argv, env, file_actions=actions, setsid=True, setsigdef=reset,
            setsigmask=(),
        )  # fmt: skip
    finally:
        os.chdir("/")


def read_file(rid: int, path: str) -> int:
    """Send a file's bytes as `cat` would; 44 (kiln's "no such file") when it cannot."""
    try:
        with open(path, "rb") as source:
            while True:
                data = source.read(CHUNK)
                if not data:
                    return 0
                send(rid, OUT, data)
    except OSError:
        return 44


def write_file(path: str, data: bytes) -> bytes:
    """`mkdir -p "$(dirname PATH)" && cat > PATH`: folders and a new file by the umask, an
    existing file keeps its mode (and a link is followed); b"" or why it failed."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as target:
            target.write(data)
    except OSError as exc:
        return f"{exc}\n".encode()
    return b""


def find_program(name: str, env: dict[str, str]) -> str:
    """`name` looked up on the command's own PATH, as Popen (and execvpe) would."""
    if "/" in name:
        return name
    for folder in env.get("PATH", os.defpath).split(os.pathsep):
        path = os.path.join(folder or ".", name)
        if os.access(path, os.X_OK) and not os.path.isdir(path):
            return path
    raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), name)


def kill(job: Job) -> None:
    """SIGKILL everything the command started: its session holds the wrapper and the
    process group `timeout` made for the command itself."""
    session = job.pid
    for pid, fields in proc_stats():
        if int(fields[3]) == session:  # state, ppid, pgrp, session
            quietly(os.kill, pid, signal.SIGKILL)
    quietly(os.killpg, session, signal.SIGKILL)


def quietly(call: Callable[..., object], *args: object) -> None:
    """call(*args), an OSError (a process gone already) ignored; contextlib.suppress
    would cost the server's start contextlib's imports."""
    try:  # noqa: SIM105
        call(*args)
    except OSError:
        pass


def proc_stats() -> list[tuple[int, list[bytes]]]:
    """(pid, the fields of /proc/PID/stat after the name) of every process in the container."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 19:
            found.append((int(entry), fields))
    return found


def processes() -> dict[int, tuple[int, bytes, int, int]]:
    """pid -> (parent pid, state, start time, session) of every process in the container."""
    return {pid: (int(f[1]), f[0], int(f[19]), int(f[3])) for pid, f in proc_stats()}


def strays(table: dict[int, tuple[int, bytes, int, int]], kept: set[int]) -> list[int]:
    """Live processes that hang under init but not from its first child (the container's
    main process): what is left of a command that left its process group. A process whose
    line of parents ends at pid 0 came from a `docker exec` (kiln's own) and is kept, and
    so is one in a running service's session (`kept`): what a service started is its own."""
    under_init = [pid for pid, (parent, *_rest) in table.items() if parent == 1]
    if not under_init:
        return []
    main = min(under_init, key=lambda pid: (table[pid][2], pid))
    found = []
    for pid, (parent, state, _start, session) in table.items():
        if pid == 1 or state in (b"Z", b"X") or session in kept:
            continue
        top, seen = pid, 0
        while parent not in (0, 1) and parent in table and seen < len(table):
            top, parent, seen = parent, table[parent][0], seen + 1
        if parent == 1 and top != main:
            found.append(pid)
    return found


def sweep(kept: set[int]) -> int:
    """Kill every stray (`kept`: the running services' sessions); how many there were.
    They are stopped first, round after round until no new one appears, so none can fork
    another between the look and the kill."""
    stopped: set[int] = set()
    for _round in range(50):
        new = [pid for pid in strays(processes(), kept) if pid not in stopped]
        if not new:
            break
        for pid in new:
            quietly(os.kill, pid, signal.SIGSTOP)
        stopped.update(new)
    for pid in stopped:
        quietly(os.kill, pid, signal.SIGKILL)
    return len(stopped)


def listening_ports(session: int) -> list[int]:
    """The TCP ports on which a process of `session`, or one it started, listens: its
    sockets' inodes matched against the container's /proc/net/tcp tables (state 0A)."""
    table = processes()
    inodes = set()
    for pid, (parent, _state, _start, owner) in table.items():
        seen = 0
        while owner != session and parent in table and seen < len(table):
            parent, owner, seen = table[parent][0], table[parent][3], seen + 1
        if owner != session:
            continue
        try:
            names = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for name in names:
            try:
                link = os.readlink(f"/proc/{pid}/fd/{name}")
            except OSError:
                continue
            if link.startswith("socket:["):
                inodes.add(link[8:-1])
    ports = set()
    for path in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(path) as sockets:
                lines = sockets.read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 9 and fields[3] == "0A" and fields[9] in inodes:
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return sorted(ports)


def oom_kills() -> int:
    """How many processes the kernel's OOM killer has killed in this container (-1: unknown)."""
    for path in ("/sys/fs/cgroup/memory.events", "/sys/fs/cgroup/memory/memory.oom_control"):
        try:
            with open(path, "rb") as events:
                for line in events:
                    name, _, value = line.partition(b" ")
                    if name == b"oom_kill":
                        return int(value)
        except (OSError, ValueError):
            continue
    return -1


def _ignore(_signum: int, _frame: object) -> None:
    pass


def main() -> None:
    try:
        Server().serve()
    except BrokenPipeError:  # kiln's end of the connection closed
        sys.exit(0)


if __name__ == "__main__":  # handed over as a source (`python3 -c`), not imported
    main()
