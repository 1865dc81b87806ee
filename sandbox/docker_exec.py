"""Plain `docker exec`: one engine round trip per command.

The Docker backend runs commands through its in-container server (sandbox/exec_channel.py);
this is what it falls back to where the server cannot run (an image without python3), and
what it uses to look inside a container when the server is not the thing to ask.
"""

from __future__ import annotations

import io
import time
from typing import Any

from sandbox.base import Sink
from sandbox.engine_api import Engine, EngineError, EngineNotFound, Hijacked


class ContainerMissing(Exception):
    """The container is gone (or stopped) before a command could start in it."""


def exec_create(engine: Engine, container: str, argv: list[str], **options: Any) -> str:
    try:
        return engine.exec_create(container, argv, **options)
    except EngineNotFound:
        raise ContainerMissing() from None
    except EngineError as exc:
        if exc.status == 409:  # "container ... is not running"
            raise ContainerMissing() from None
        raise


def plain_exec(
    engine: Engine,
    container: str,
    argv: list[str],
    out: Sink,
    err: Sink,
    *,
    cwd: str,
    env: dict[str, str] | None,
    deadline_s: float | None,
) -> tuple[int | None, bool]:
    """(exit status, None if unknown; whether the deadline passed first)."""
    exec_id = exec_create(engine, container, argv, workdir=cwd, env=env)
    stream = engine.exec_start(exec_id)
    deadline = None if deadline_s is None else time.monotonic() + deadline_s
    deadline_hit = not pump_frames(stream, out, err, deadline)
    try:
        exit_code = _finished_exec(engine, exec_id).get("ExitCode")
    except EngineNotFound:
        exit_code = None
    return exit_code, deadline_hit


def output_of(engine: Engine, container: str, argv: list[str]) -> bytes:
    chunks: list[bytes] = []
    plain_exec(
        engine, container, argv, chunks.append, lambda _: None, cwd="/", env=None, deadline_s=30
    )
    return b"".join(chunks)


def pump_frames(stream: Hijacked, out: Sink, err: Sink, deadline: float | None) -> bool:
    """Copy docker's multiplexed exec stream to the sinks; False if the deadline passed.

    Reads in bounded pieces, so memory stays flat however much a command prints.
    """
    try:
        while True:
            header = _read_exact(stream, 8, deadline)
            if header is None:
                return True
            kind, size = header[0], int.from_bytes(header[4:8], "big")
            sink = err if kind == 2 else out
            while size > 0:
                piece = _read_exact(stream, min(size, 65536), deadline)
                if piece is None:
                    return True
                sink(piece)
                size -= len(piece)
    except TimeoutError:
        return False
    finally:
        stream.close()


def _read_exact(stream: Hijacked, n: int, deadline: float | None) -> bytes | None:
    chunks: list[bytes] = []
    while n > 0:
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            stream.settimeout(remaining)
        data = stream.recv(n)  # socket.timeout is TimeoutError
        if not data:
            return None
        chunks.append(data)
        n -= len(data)
    return b"".join(chunks)


def _finished_exec(engine: Engine, exec_id: str) -> dict[str, Any]:
    """The stream can close a moment before the engine records the exit code."""
    info = engine.exec_inspect(exec_id)
    for _ in range(50):
        if not info.get("Running") and info.get("ExitCode") is not None:
            break
        time.sleep(0.01)
        info = engine.exec_inspect(exec_id)
    return info


def upload(engine: Engine, container: str, path: str, data: bytes, owner: tuple[int, int]) -> None:
    """Put `data` at PATH in the container (mode 600, owned by the sandbox user); its
    directory must be a mount, as the container's root is read-only."""
    import tarfile  # only here, where no command server runs: the sandbox's start skips it

    directory, name = path.rsplit("/", 1)
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        info = tarfile.TarInfo(name)
        info.size = len(data)
        info.mode = 0o600
        info.uid, info.gid = owner
        info.mtime = int(time.time())
        tar.addfile(info, io.BytesIO(data))
    engine.put_archive(container, directory, buf.getvalue())
