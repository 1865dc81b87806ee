"""`kiln batch --engine ray` on a real local Ray cluster: a head and a worker node, each its
own `ray start` (own temp dir, own ports, on loopback addresses, no usage report), the
scripted batch run through it, and the worker node killed mid-batch.

Ray is heavy on two cores: two tests, one cluster for both. With CI=true a missing Ray
fails (it is the `ray` extra, which .ci/setup installs)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.batch.raycluster import (
    HEAD_IP,
    RAY,
    WORKER_IP,
    Node,
    ray_env,
    start_head,
    start_worker,
)
from tests.batch.scenario import IDS, KILN, Batch, check_solved_batch, leftovers
from tests.conftest import IN_CI, require_docker
from tests.scripted import FIX_SCRIPT

pytestmark = [pytest.mark.docker, pytest.mark.ray]


@dataclass
class Cluster:
    address: str
    head: Node
    worker: Node


def require_ray() -> None:
    if shutil.which(RAY) is None:
        if IN_CI:
            pytest.fail("CI=true and Ray is required: install kiln-code[ray] (.ci/setup does).")
        pytest.skip("Ray is not installed (pip install 'kiln-code[ray]')")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    require_ray()
    require_docker()
    base = ray_env({k: v for k, v in os.environ.items() if not k.startswith("KILN_")})

    def node_env(name: str) -> dict[str, str]:
        """Each node its own config and session store, as on machines of their own."""
        home = tmp_path_factory.mktemp(f"ray-{name}")
        xdg = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")
        return {**base, **{var: str(home / var.lower()) for var in xdg}}

    nodes: list[Node] = []
    try:
        address, head = start_head(node_env("head"), sandboxes=1)
        nodes.append(head)
        nodes.append(start_worker(node_env("worker"), address, sandboxes=2))
        yield Cluster(address, nodes[0], nodes[1])
    except RuntimeError as exc:
        pytest.fail(str(exc))
    finally:
        for node in reversed(nodes):
            node.stop()


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


def test_a_second_ctrl_c_cancels_the_ray_tasks_on_their_nodes(
    cluster: Cluster, tmp_path: Path
) -> None:
    batch = Batch(tmp_path, delays={i: 60.0 for i in IDS})  # the model would keep them busy
    with batch.serving():
        driver = batch.start("--engine", "ray", "--address", cluster.address, busy=3, env=ray_env())
        started = time.monotonic()
        said = batch.press_ctrl_c_twice(driver)
        _, rest = driver.communicate(timeout=60)
        err = said + rest
    assert driver.returncode == 130, err
    assert time.monotonic() - started < 30  # cancelled, not waited out
    assert "cancelling" in err, err
    assert batch.lines() == []
    assert leftovers(f"kiln.batch={batch.out}") == ([], [])  # each node closed its sandboxes


def test_a_worker_node_lost_mid_batch_its_tasks_finish_on_the_head_once(
    cluster: Cluster, tmp_path: Path
) -> None:
    batch = Batch(tmp_path, delays={i: 4.0 for i in IDS})
    with batch.serving():
        # Three slots (one on the head, two on the worker): three tasks under way.
        driver = batch.start("--engine", "ray", "--address", cluster.address, busy=3, env=ray_env())
        cluster.worker.lose()
        out, err = driver.communicate(timeout=240)
        asked = {i: len(batch.servers[i].chat_requests) for i in IDS}
        seen = {i: [(r.turn, r.outcome) for r in batch.servers[i].chat_requests] for i in IDS}
        started_twice = [i for i in IDS if asked[i] > len(FIX_SCRIPT)]
    assert driver.returncode == 0, err + out
    lines = check_solved_batch(batch)  # every id exactly once, every one solved
    nodes = {line["id"]: line["node"] for line in lines}
    assert {node.split()[0] for node in nodes.values()} == {HEAD_IP}, nodes  # the worker is gone
    assert len(started_twice) == 2, (seen, nodes, err)  # the worker's two, started again
    pruned = subprocess.run([KILN, "sandbox", "prune"], capture_output=True, text=True)
    assert pruned.returncode == 0, pruned.stderr
    assert leftovers(f"kiln.batch={batch.out}") == ([], []), pruned.stdout
