"""Serve the local model: llama-cpp-python's server on 127.0.0.1, detached, with logs.

The server outlives the kiln process that started it, so the next run finds it warm (the
model loaded, the prompt prefix still in its KV cache). Its pid, port and model are kept
in the XDG state dir; `kiln local stop` ends it. A lock file keeps two kiln processes
from starting two servers at once.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path

import httpx

from agent.local.catalog import ModelSpec
from agent.local.common import LocalModelError, log_dir
from agent.local.weights import model_path
from agent.settings import paths
from sandbox.frozen import frozen

READY_TIMEOUT_S = 180.0
RAM_CACHE_BYTES = 256 << 20  # every byte the saved states hold (server_process.py)
# What the server's command line names, so a recycled pid is never taken for it; the
# second is how kiln before server_process.py started it.
SERVER_MARKERS = (b"agent.local.server_process", b"llama_cpp.server")


@frozen
class ServerState:
    pid: int
    port: int
    model: str  # the catalog name, also the alias the server answers to
    model_path: str
    started_at: float
    log: str

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


def state_file() -> Path:
    record = paths.local_server_record()
    record.parent.mkdir(parents=True, exist_ok=True)
    return record


def server_log() -> Path:
    return log_dir() / "server.log"


def read_state() -> ServerState | None:
    """The recorded server if its process still runs, else None (a stale record is removed)."""
    try:
        state = ServerState(**json.loads(state_file().read_text()))
    except (OSError, ValueError, TypeError):
        return None
    if not _is_our_server(state.pid):
        state_file().unlink(missing_ok=True)
        return None
    return state


def answers(state: ServerState, timeout: float = 2.0) -> bool:
    try:
        response = httpx.get(f"{state.base_url}/models", timeout=timeout)
    except httpx.HTTPError:
        return False
    return response.status_code == 200


def ensure_serving(spec: ModelSpec) -> ServerState:
    """A running server for `spec`, started if needed (one that serves another model stops)."""
    with _start_lock():
        state = read_state()
        # A server another kiln just started may still be loading: give it its chance.
        if state is not None and state.model == spec.name and _wait_ready(state, None):
            return state
        if state is not None:
            stop_server(state)
        return _start(spec)


def stop_server(state: ServerState, grace_s: float = 10.0) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(state.pid, signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline and _is_our_server(state.pid):
        time.sleep(0.1)
    if _is_our_server(state.pid):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(state.pid, signal.SIGKILL)
    state_file().unlink(missing_ok=True)


# Prompt lookup: a reply that repeats its prompt (a module handed back to improve) is
# checked several tokens a pass (server_process.LookupDraft; bench/bench_draft.py).
DRAFT_FLAGS = ("--draft_model", "prompt-lookup-decoding", "--draft_model_num_pred_tokens", "8")


def server_command(spec: ModelSpec, port: int) -> list[str]:
    threads = str(os.cpu_count() or 2)
    return [
        sys.executable, "-m", "agent.local.server_process",
        "--model", str(model_path(spec)),
        "--model_alias", spec.alias,
        "--host", "127.0.0.1",
        "--port", str(port),
        "--n_ctx", str(spec.context_window),
        "--n_threads", threads,
        "--n_threads_batch", threads,
        # The RAM prompt cache keeps KV states across requests, so a prompt that shares a
        # prefix with an earlier one (every agent turn does) skips re-reading it. A few
        # states are enough, since one session's turns reuse the live context anyway.
        "--cache", "true",
        "--cache_size", str(RAM_CACHE_BYTES),
        # The server's default keeps logits for every position (n_ctx x vocab floats, ~10 GB
        # at 16k) and copies them into each cached state: the process grew to 17 GB.
        "--logits_all", "false",
        # llama.cpp repacks most weights into a layout of its own (CPU_REPACK, 600 MB)
        # while the mapped file's pages it read them from stay resident too: 780 MB more
        # for the same work. Read into memory, the model is held once.
        "--use_mmap", "false",
        # Two kiln sessions (or `kiln batch`) share the server: by default a new request cuts
        # off the one running (it ends at once, empty); queue them instead.
        "--interrupt_requests", "false",
        # Verbose logs carry "N prefix-match hit" per request: the cache share is measurable.
        "--verbose", "true",
        *DRAFT_FLAGS,
    ]  # fmt: skip


def _start(spec: ModelSpec) -> ServerState:
    if not model_path(spec).is_file():
        raise LocalModelError(f"{spec.name} is not installed; run `kiln local install`.")
    port = _free_port()
    log = server_log()
    with log.open("ab") as out:
        out.write(f"\n==== {time.strftime('%F %T')} serving {spec.name} on {port}\n".encode())
        out.flush()
        proc = subprocess.Popen(
            server_command(spec, port),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # detached: Ctrl-C in kiln does not reach the server
        )
    state = ServerState(proc.pid, port, spec.name, str(model_path(spec)), time.time(), str(log))
    state_file().write_text(json.dumps(asdict(state)))
    if not _wait_ready(state, proc):
        stop_server(state)
        raise LocalModelError(f"The local server did not come up ({_last_line(log)}); see {log}.")
    return state


def _wait_ready(state: ServerState, proc: subprocess.Popen[bytes] | None) -> bool:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            return False
        if proc is None and not _is_our_server(state.pid):
            return False
        if answers(state, timeout=1.0):
            return True
        time.sleep(0.25)
    return False


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _is_our_server(pid: int) -> bool:
    """True if `pid` runs kiln's model server (a recycled pid must never be signalled)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    if not any(marker in cmdline for marker in SERVER_MARKERS):
        return False
    with contextlib.suppress(OSError):
        if Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].startswith("Z"):
            return False  # a zombie has exited; only its parent has not reaped it yet
    return True


def _last_line(log: Path) -> str:
    try:
        lines = [ln for ln in log.read_text(errors="replace").splitlines() if ln.strip()]
    except OSError:
        return "no log"
    return lines[-1].strip()[:200] if lines else "no output"


@contextlib.contextmanager
def _start_lock() -> Iterator[None]:
    with (log_dir() / "server.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
