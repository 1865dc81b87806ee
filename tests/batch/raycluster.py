"""A real Ray cluster on this machine for the tests and the bench: each node its own
`ray start --block` (its own process group, temp dir and ports) on a loopback address,
with no usage report and no dashboard; stopped by signalling our own process groups only."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from sandbox.exec_server import processes  # the command server's /proc reader

RAY = str(Path(sys.executable).parent / "ray")
HEAD_IP, WORKER_IP = "127.0.0.2", "127.0.0.3"  # Ray rewrites 127.0.0.1; these it keeps


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# Ray's token authentication, with a token of this process's own: no token file of the
# person's (~/.ray/auth_token) is read or written, and only our processes join our cluster.
TOKEN = secrets.token_hex(32)


def ray_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of every `ray start` and driver: nothing reported home, one token."""
    env = {k: v for k, v in (base or os.environ).items() if not k.startswith("RAY_")}
    return {
        **env,
        "RAY_USAGE_STATS_ENABLED": "0",
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN": TOKEN,
    }


@dataclass
class Node:
    process: subprocess.Popen[bytes]
    temp: Path
    log: Path

    def kill(self, how: signal.Signals) -> None:
        """`ray start --block` and its raylet (one process group)."""
        try:
            os.killpg(self.process.pid, how)
        except ProcessLookupError:
            return

    def lose(self) -> None:
        """The machine gone at once: every process of the node's session killed. Ray puts
        each worker process in a process group of its own, so a signal to the node's group
        leaves the workers running their tasks for seconds after their raylet died (on a
        busy machine, long enough to finish a model call), which no lost machine does."""
        session = self.process.pid  # start_new_session: the session's id is its leader's pid
        for pid, (_parent, _state, _started, its_session) in processes().items():
            if its_session == session:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)

    def stop(self) -> None:
        self.kill(signal.SIGTERM)  # `ray start --block` stops its own processes on SIGTERM
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.kill(signal.SIGKILL)
            self.process.wait(timeout=10)
        shutil.rmtree(self.temp, ignore_errors=True)


def start_node(env: dict[str, str], sandboxes: int, *args: str) -> Node:
    """One node offering `sandboxes` units of kiln_sandbox; RuntimeError if it does not start."""
    temp = Path(tempfile.mkdtemp(prefix="kr", dir="/tmp"))  # short: sockets live there
    log = temp / "start.log"
    command = [
        RAY, "start", "--block", "--num-cpus=1", "--disable-usage-stats",
        f"--temp-dir={temp}", "--object-store-memory=80000000",
        f"--dashboard-agent-listen-port={free_port()}",
        "--resources=" + json.dumps({"kiln_sandbox": sandboxes}), *args,
    ]  # fmt: skip
    with open(log, "wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=out, env=env, start_new_session=True)
    node = Node(process, temp, log)
    deadline = time.monotonic() + 90
    while b"Ray runtime started" not in log.read_bytes():
        if process.poll() is not None or time.monotonic() > deadline:
            node.kill(signal.SIGKILL)
            raise RuntimeError(f"ray start did not start a node: {log.read_text()[-2000:]}")
        time.sleep(0.2)
    return node


def start_head(env: dict[str, str], sandboxes: int) -> tuple[str, Node]:
    port = free_port()
    node = start_node(env, sandboxes, "--head", f"--node-ip-address={HEAD_IP}",
                      f"--port={port}", "--include-dashboard=false")  # fmt: skip
    return f"{HEAD_IP}:{port}", node


def start_worker(env: dict[str, str], address: str, sandboxes: int) -> Node:
    return start_node(env, sandboxes, f"--address={address}", f"--node-ip-address={WORKER_IP}")
