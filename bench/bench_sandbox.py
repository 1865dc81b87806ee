"""Sandbox benchmarks: ready time on a big repository, exec round trip vs raw docker exec.

Run: .venv/bin/python bench/bench_sandbox.py [--files 5000] [--mb 100] [--runs 200]
Targets: ready < 1.5 s for 5,000 files / 100 MB; exec p50 within 1.3x of a raw SDK exec on
the same container, measured in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import docker

from sandbox.base import DEFAULT_IMAGE, SandboxConfig
from sandbox.docker_backend import DockerSandbox


def make_repo(root: Path, files: int, total_mb: int) -> Path:
    size = total_mb * 1024 * 1024 // files
    chunk = os.urandom(size)
    for i in range(files):
        path = root / f"pkg{i % 50:02d}" / f"mod{i:05d}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        # Distinct content per file (so git stores 5,000 blobs), same size.
        path.write_bytes(f"# {i}\n".encode() + chunk[: size - 16].hex().encode()[: size - 16])
    env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@e"}
    env |= {"GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@e"}
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, check=True)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(["git", "commit", "-qm", "bench"], cwd=root, check=True, env=env)
    return root


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def raw_container_start(client: docker.DockerClient) -> float:
    started = time.perf_counter()
    container = client.containers.create(
        DEFAULT_IMAGE, ["sleep", "infinity"], network_mode="none", init=True
    )
    container.start()
    elapsed = time.perf_counter() - started
    container.remove(force=True)
    return elapsed


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--mb", type=int, default=100)
    parser.add_argument("--runs", type=int, default=200)
    opts = parser.parse_args()
    client = docker.from_env()
    with tempfile.TemporaryDirectory(prefix="kiln-bench-") as tmp:
        print(f"generating a repository of {opts.files} files / {opts.mb} MB ...")
        repo = make_repo(Path(tmp) / "repo", opts.files, opts.mb)
        (repo / "pkg00" / "mod00000.py").write_text("# an uncommitted edit\n")
        state = Path(tmp) / "state"

        ready: list[float] = []
        for _ in range(3):
            sandbox = DockerSandbox(repo, SandboxConfig(state_dir=state))
            started = time.perf_counter()
            await sandbox.start()
            ready.append(time.perf_counter() - started)
            await sandbox.close()
        floor_start = statistics.median(raw_container_start(client) for _ in range(3))

        sandbox = DockerSandbox(repo, SandboxConfig(state_dir=state))
        await sandbox.start()
        assert sandbox.container_id is not None
        api = client.api
        for _ in range(10):  # warm both paths
            await sandbox.exec("true")
        ours: list[float] = []
        raw: list[float] = []
        for _ in range(opts.runs):
            # Interleaved so both see the same machine state.
            t = time.perf_counter()
            result = await sandbox.exec("true")
            ours.append(time.perf_counter() - t)
            assert result.exit_code == 0
            t = time.perf_counter()
            exec_id = api.exec_create(sandbox.container_id, ["true"])["Id"]
            api.exec_start(exec_id)
            assert api.exec_inspect(exec_id)["ExitCode"] == 0
            raw.append(time.perf_counter() - t)
        await sandbox.close()

    ready_med = statistics.median(ready)
    print(f"\nsandbox ready ({opts.files} files, {opts.mb} MB, overlay + baseline):")
    print(f"  median {ready_med:.3f} s  (runs: {', '.join(f'{r:.3f}' for r in ready)})")
    print(
        f"  raw container create+start floor {floor_start:.3f} s, ratio {ready_med / floor_start:.2f}x"
    )
    print(f"  target < 1.5 s: {'met' if ready_med < 1.5 else 'MISSED'}")
    p50, p95 = statistics.median(ours), pct(ours, 0.95)
    r50, r95 = statistics.median(raw), pct(raw, 0.95)
    print(f"\nexec round trip of `true` ({opts.runs} runs each, interleaved):")
    print(f"  kiln exec      p50 {p50 * 1000:.1f} ms  p95 {p95 * 1000:.1f} ms")
    print(f"  raw SDK exec   p50 {r50 * 1000:.1f} ms  p95 {r95 * 1000:.1f} ms")
    print(
        f"  ratio p50 {p50 / r50:.2f}x  p95 {p95 / r95:.2f}x  (target p50 <= 1.3x: "
        f"{'met' if p50 / r50 <= 1.3 else 'MISSED'})"
    )


if __name__ == "__main__":
    asyncio.run(main())
