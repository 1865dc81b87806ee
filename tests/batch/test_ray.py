"""`kiln batch --engine ray` on a real local Ray cluster: a head and a worker node, each its
own `ray start` (own temp dir, own ports, on loopback addresses, no usage report), the
scripted batch run through it, and the worker node killed mid-batch.

Ray is heavy on two cores: two tests, one cluster for both. With CI=true a missing Ray
fails (it is the `ray` extra, which .ci/setup installs)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.batch.scenario import IDS, KILN, Batch, check_solved_batch, leftovers
from tests.conftest import IN_CI
from tests.core.conftest import FIX_SCRIPT

pytestmark = [pytest.mark.docker, pytest.mark.ray]
RAY = str(Path(sys.executable).parent / "ray")
HEAD_IP, WORKER_IP = "127.0.0.2", "127.0.0.3"  # Ray rewrites 127.0.0.1; these it keeps


def require_ray() -> None:
    if shutil.which(RAY) is None:
        if IN_CI:
            pytest.fail("CI=true and Ray is required: install kiln[ray] (.ci/setup does).")
        pytest.skip("Ray is not installed (pip install 'kiln[ray]')")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Node:
    process: subprocess.Popen[bytes]
    temp: Path
    log: Path

    def kill(self, how: signal.Signals) -> None:
        """The whole node: `ray start --block`, its raylet and its workers (one group)."""
        try:
            os.killpg(self.process.pid, how)
        except ProcessLookupError:
            return


@dataclass
class Cluster:
    address: str
    head: Node
    worker: Node


def start_node(env: dict[str, str], *args: str) -> Node:
    temp = Path(tempfile.mkdtemp(prefix="kr", dir="/tmp"))  # short: sockets live there
    log = temp / "start.log"
    command = [
        RAY, "start", "--block", "--num-cpus=1", "--disable-usage-stats",
        f"--temp-dir={temp}", "--object-store-memory=80000000",
        f"--dashboard-agent-listen-port={free_port()}", *args,
    ]  # fmt: skip
    with open(log, "wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=out, env=env, start_new_session=True)
    node = Node(process, temp, log)
    deadline = time.monotonic() + 90
    while b"Ray runtime started" not in log.read_bytes():
        if process.poll() is not None or time.monotonic() > deadline:
            node.kill(signal.SIGKILL)
            pytest.fail(f"ray start did not start a node: {log.read_text()[-2000:]}")
        time.sleep(0.2)
    return node


def stop_node(node: Node) -> None:
    node.kill(signal.SIGTERM)  # `ray start --block` stops its own processes on SIGTERM
    try:
        node.process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        node.kill(signal.SIGKILL)
        node.process.wait(timeout=10)
    shutil.rmtree(node.temp, ignore_errors=True)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    require_ray()
    from tests.conftest import require_docker

    require_docker()
    home = tmp_path_factory.mktemp("ray-xdg")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KILN_", "RAY_"))}
    env["RAY_USAGE_STATS_ENABLED"] = "0"
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[var] = str(home / var.lower())  # the workers' session store, not the person's
    port = free_port()
    resources = '--resources={"kiln_sandbox": %d}'
    nodes: list[Node] = []
    try:
        nodes.append(start_node(env, "--head", f"--node-ip-address={HEAD_IP}", f"--port={port}",
                                "--include-dashboard=false", resources % 1))  # fmt: skip
        nodes.append(start_node(env, f"--address={HEAD_IP}:{port}",
                                f"--node-ip-address={WORKER_IP}", resources % 2))  # fmt: skip
        yield Cluster(f"{HEAD_IP}:{port}", nodes[0], nodes[1])
    finally:
        for node in reversed(nodes):
            stop_node(node)


def ray_env() -> dict[str, str]:
    return {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}


def test_the_same_batch_on_a_ray_cluster_gives_the_same_results(
    cluster: Cluster, tmp_path: Path
) -> None:
    batch = Batch(tmp_path)
    with batch.serving():
        done = subprocess.run(
            batch.command("--engine", "ray", "--address", cluster.address, "--output-format", "json"),
            capture_output=True, text=True, timeout=300, env=ray_env(),
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    check_solved_batch(batch)
    summary = json.loads(done.stdout.splitlines()[-1])
    assert summary["engine"] == "ray" and summary["solved"] == 4
    nodes = {line["node"].split()[0] for line in batch.lines()}
    assert nodes <= {HEAD_IP, WORKER_IP}  # each ran on a node of the cluster
    assert leftovers(f"kiln.batch={batch.out}") == ([], [])


def test_a_worker_node_lost_mid_batch_its_tasks_finish_on_the_head_once(
    cluster: Cluster, tmp_path: Path
) -> None:
    batch = Batch(tmp_path, delays={i: 4.0 for i in IDS})
    with batch.serving():
        driver = subprocess.Popen(
            batch.command("--engine", "ray", "--address", cluster.address),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ray_env(),
        )  # fmt: skip
        deadline = time.monotonic() + 120
        # Three slots (one on the head, two on the worker): three tasks under way.
        while sum(bool(batch.servers[i].chat_requests) for i in IDS) < 3:
            assert time.monotonic() < deadline and driver.poll() is None, driver.stderr
            time.sleep(0.05)
        cluster.worker.kill(signal.SIGKILL)
        out, err = driver.communicate(timeout=240)
        started_twice = [i for i in IDS if len(batch.servers[i].chat_requests) > len(FIX_SCRIPT)]
    assert driver.returncode == 0, err + out
    lines = check_solved_batch(batch)  # every id exactly once, every one solved
    assert {line["node"].split()[0] for line in lines} == {HEAD_IP}  # the worker is gone
    assert len(started_twice) == 2, started_twice  # the worker's two, started again
    pruned = subprocess.run([KILN, "sandbox", "prune"], capture_output=True, text=True)
    assert pruned.returncode == 0, pruned.stderr
    assert leftovers(f"kiln.batch={batch.out}") == ([], [])
