"""A Docker sandbox's container asked for before its sandbox exists (sandbox/launch.py, as
`kiln run` does before it loads the session): adopted, abandoned, or failed, nothing of it
is left behind, and a failure says what it would have said from the sandbox's own start."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from sandbox.base import SandboxError
from sandbox.config import SandboxConfig
from sandbox.docker_backend import DockerSandbox
from sandbox.launch import begin
from tests.batch.scenario import leftovers

pytestmark = pytest.mark.docker


def config(tmp_path: Path, **values: object) -> SandboxConfig:
    return SandboxConfig(state_dir=tmp_path / "state", **values)  # type: ignore[arg-type]


async def test_a_sandbox_adopts_the_container_asked_for_early(repo: Path, tmp_path: Path) -> None:
    early = begin(repo, config(tmp_path), "early-adopted")
    assert early is not None
    sandbox = DockerSandbox(repo, config(tmp_path), session_id="early-adopted", early=early)
    await sandbox.start()
    try:
        assert sandbox.container_id == early.launch.container_id is not None
        assert (await sandbox.exec("cat README.md; echo made >> README.md")).output == (
            "# demo, edited but not committed\n"
        )
        assert "+made" in await sandbox.diff()
    finally:
        await sandbox.close()
    assert leftovers("kiln.session=early-adopted") == ([], [])
    assert not (tmp_path / "state").exists() or not any((tmp_path / "state").iterdir())


async def test_an_early_launch_nobody_takes_leaves_nothing(repo: Path, tmp_path: Path) -> None:
    early = begin(repo, config(tmp_path), "early-abandoned")
    assert early is not None
    await asyncio.to_thread(early.abandon)
    assert leftovers("kiln.session=early-abandoned") == ([], [])
    assert not any((tmp_path / "state").iterdir())


async def test_a_sandbox_closed_before_it_started_removes_its_early_container(
    repo: Path, tmp_path: Path
) -> None:
    early = begin(repo, config(tmp_path), "early-unstarted")
    assert early is not None
    sandbox = DockerSandbox(repo, config(tmp_path), session_id="early-unstarted", early=early)
    await sandbox.close()  # Ctrl+C before its start: the container was made meanwhile
    assert leftovers("kiln.session=early-unstarted") == ([], [])


async def test_a_failed_early_launch_says_why_when_its_sandbox_starts(
    repo: Path, tmp_path: Path
) -> None:
    cfg = config(tmp_path, image="kiln-no-such-image:1")
    early = begin(repo, cfg, "early-failed")
    assert early is not None
    sandbox = DockerSandbox(repo, cfg, session_id="early-failed", early=early)
    with pytest.raises(SandboxError, match="kiln-no-such-image:1 is not present"):
        await sandbox.start()
    await sandbox.close()
    assert leftovers("kiln.session=early-failed") == ([], [])


def test_an_image_or_a_setup_to_build_first_is_left_to_the_sandboxs_own_start(
    repo: Path, tmp_path: Path
) -> None:
    assert begin(repo, config(tmp_path, dockerfile="Dockerfile"), "x") is None
    assert begin(repo, config(tmp_path, setup=("pip install -e .",)), "x") is None
