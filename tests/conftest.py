"""Shared fixtures. Docker tests use the real engine; with CI=true a missing engine fails."""

from __future__ import annotations

import importlib
import os
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from sandbox.base import Sandbox

IN_CI = os.environ.get("CI", "").lower() == "true"


@pytest.fixture(autouse=True)
def _isolated_xdg(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every test gets its own config/data/state dirs so nothing leaks between tests."""
    base = tmp_path_factory.mktemp("xdg")
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(var, str(base / var.lower()))
    for var in list(os.environ):
        if var.startswith("KILN_"):
            monkeypatch.delenv(var)


def docker_unavailable_reason() -> str | None:
    try:
        import docker

        client = docker.from_env(timeout=5)
        client.ping()
    except Exception as exc:  # any failure means "no engine" here
        return f"Docker engine not reachable: {exc}"
    from sandbox.base import DEFAULT_IMAGE

    try:
        client.images.get(DEFAULT_IMAGE)
    except Exception:
        return f"sandbox image {DEFAULT_IMAGE} missing: run `kiln sandbox bootstrap`"
    return None


def require_docker() -> None:
    """Skip locally, fail in CI (CI=true), when the engine or the sandbox image is missing."""
    reason = docker_unavailable_reason()
    if reason:
        if IN_CI:
            pytest.fail(f"CI=true and Docker is required: {reason}")
        pytest.skip(reason)


def import_or_skip_locally(name: str, how: str) -> Any:
    """The module `name`; when it is missing, skip locally and fail in CI (CI=true), where
    `.ci/setup` installs it (`how` says how), so its tests never pass by not running."""
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        if IN_CI:
            pytest.fail(f"CI=true and {name} is required ({how}): {exc}", pytrace=False)
        pytest.skip(f"{name} is not installed ({how})", allow_module_level=True)


@pytest.fixture(scope="session")
def docker_ready() -> None:
    """Depend on this (or mark the test `docker`) in every test that needs the engine."""
    require_docker()


@pytest.fixture(autouse=True)
def _docker_marker_needs_the_engine(request: pytest.FixtureRequest) -> None:
    if request.node.get_closest_marker("docker"):
        require_docker()


def make_git_repo(path: Path, files: dict[str, str | bytes]) -> Path:
    """A real git repository with one commit holding `files`."""
    path.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        target = path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content)
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@e",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@e",
    }
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=path, check=True)
    subprocess.run(["git", "add", "-A"], cwd=path, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "initial"], cwd=path, check=True, env=env)
    return path


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that needs the engine carries the `docker` marker, so `-m "not docker"`
    runs the rest: tests marked so, and tests depending on `docker_ready` (directly or
    through another fixture)."""
    for item in items:
        if "docker_ready" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.docker)


# A started Docker sandbox over a real repository holding a bug (tests.scripted.BUGGY_REPO).
# Imported inside the fixtures: tests.scripted imports this module.
@pytest.fixture
def buggy_repo(tmp_path: Path) -> Path:
    from tests.scripted import BUGGY_REPO

    return make_git_repo(tmp_path / "repo", BUGGY_REPO)


@pytest.fixture
async def sandbox(docker_ready: None, buggy_repo: Path) -> AsyncIterator[Sandbox]:
    from agent.settings.config import load_settings
    from sandbox.factory import create_sandbox

    config = load_settings(buggy_repo, env={}).sandbox
    box = create_sandbox(buggy_repo, config)
    await box.start()
    try:
        yield box
    finally:
        await box.close()
