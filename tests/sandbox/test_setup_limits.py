"""Must hold: the setup phase runs under the session's limits (memory, pids, file size,
and the disk limit over all it writes), and its images stay under a cap and are pruned."""

from __future__ import annotations

import re
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox import engine_api, setup, setup_images
from sandbox.base import DEFAULT_IMAGE, SandboxConfig
from sandbox.engine_api import Engine
from tests.conftest import make_git_repo

MB = 1 << 20


@pytest.fixture
def engine(docker_ready: None) -> Iterator[Engine]:
    """The engine; the setup images the test made are removed after it."""
    client = engine_api.connect()
    before = {image["Id"] for image in client.images(setup.IMAGE_REPO)}
    yield client
    for image in client.images(setup.IMAGE_REPO):
        if image["Id"] not in before:
            for name in image.get("RepoTags") or []:
                client.remove_image(name)


def run_setup(
    engine: Engine, repo: Path, state: Path, *commands: str, **limits: object
) -> tuple[str, list[str]]:
    """(the image, every line setup printed); the commands are this run's own (a marker)."""
    config = SandboxConfig(
        state_dir=state,
        setup=(f": {uuid.uuid4().hex}", *commands),
        **limits,  # type: ignore[arg-type]
    )
    plan = setup.plan_for(repo, config)
    assert plan is not None
    lines: list[str] = []
    tag, built = setup.setup_image(
        engine, repo, DEFAULT_IMAGE, plan, config, lines.append, threading.Event()
    )
    assert built
    return tag, lines


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_git_repo(tmp_path / "repo", {"app.py": "x = 1\n"})


def test_setup_runs_under_the_sessions_memory_pids_and_file_size_limits(
    engine: Engine, repo: Path, tmp_path: Path
) -> None:
    _tag, lines = run_setup(
        engine, repo, tmp_path / "state",
        "cat /sys/fs/cgroup/memory/memory.limit_in_bytes /sys/fs/cgroup/memory.max 2>/dev/null || true",
        "cat /sys/fs/cgroup/pids/pids.max /sys/fs/cgroup/pids.max 2>/dev/null || true",
        "echo fsize $(ulimit -f)",
        memory="256m", pids_limit=64, disk_limit="200m",
    )  # fmt: skip
    assert str(256 * MB) in lines and "64" in lines
    assert "fsize 204800" in lines  # 200m in bash's 1 KB blocks

    with pytest.raises(setup.SetupFailed, match=r"exit 153"):  # SIGXFSZ: past the file size
        run_setup(engine, repo, tmp_path / "state", "head -c 300000000 /dev/zero > /opt/big",
                  disk_limit="200m")  # fmt: skip
    with pytest.raises(setup.SetupFailed, match=r"exit 137.*out of memory: setup may use 256m"):
        run_setup(engine, repo, tmp_path / "state", "python3 -c \"x = b'x' * (1 << 30)\"",
                  memory="256m")  # fmt: skip


def test_setup_is_stopped_past_the_disk_limit_and_leaves_no_image(
    engine: Engine, repo: Path, tmp_path: Path
) -> None:
    before = {image["Id"] for image in engine.images(setup.IMAGE_REPO)}
    # Many files, each under the file size limit: 400 MB in all, 10 MB every 0.05 s.
    writer = "for i in $(seq 40); do head -c 10000000 /dev/zero > /opt/f$i; sleep 0.05; done"
    with pytest.raises(setup.SetupFailed) as failed:
        run_setup(engine, repo, tmp_path / "state", writer, disk_limit="200m")
    message = str(failed.value)
    assert "past the disk limit of 200m ([sandbox] disk_limit), so kiln stopped it" in message
    written = re.search(r"wrote ([\d.]+) MB", message)
    assert written is not None and float(written.group(1)) < 400
    print(f"setup stopped at {written.group(1)} MB under a 200m limit")
    assert {image["Id"] for image in engine.images(setup.IMAGE_REPO)} == before


def test_setup_images_are_capped_per_repository_and_pruned(
    engine: Engine, repo: Path, tmp_path: Path
) -> None:
    made = [run_setup(engine, repo, tmp_path / "state", f"echo {n}")[0] for n in range(3)]
    left = setup_images.setup_images(engine, str(repo))
    names = {name for image in left for name in image["RepoTags"]}
    assert names == set(made[1:])  # the newest two; the first went when the third came

    assert setup_images.prune(engine, str(repo))[0] == 2
    assert setup_images.setup_images(engine, str(repo)) == []
