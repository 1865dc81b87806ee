"""`kiln sandbox ...` end to end through the real entry point and the real engine."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import docker
import pytest

from sandbox import engine
from sandbox.base import DEFAULT_IMAGE
from tests.conftest import make_git_repo

ROOT = Path(__file__).resolve().parents[2]


def kiln(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "agent.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def test_run_prints_output_and_exits_with_the_command_code(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = make_git_repo(tmp_path / "r", {"hello.py": "print('from repo')\n"})
    done = kiln("sandbox", "run", "--repo", str(repo), "--", "python3 hello.py && exit 7")
    assert done.stdout == "from repo\n" and done.returncode == 7, done.stderr
    # Several words are one argv, quoted as given.
    argv = kiln(
        "sandbox", "run", "--repo", str(repo), "--", "python3", "-c", "print('a b'); exit(4)"
    )
    assert argv.stdout == "a b\n" and argv.returncode == 4, argv.stderr
    assert (repo / "hello.py").read_text() == "print('from repo')\n"


def test_engine_down_gives_one_sentence(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "DOCKER_HOST": f"unix://{tmp_path}/none.sock"}
    done = kiln("sandbox", "run", "--repo", str(tmp_path), "--", "true", env=env)
    assert done.returncode == 5
    assert done.stderr.count("\n") == 1 and "not running" in done.stderr
    assert "Traceback" not in done.stderr
    doctor = kiln("sandbox", "doctor", env=env)
    assert doctor.returncode == 5 and "[FAIL] Docker engine reachable: The Docker" in doctor.stdout


def test_doctor_passes_with_the_engine_and_image(docker_ready: None) -> None:
    done = kiln("sandbox", "doctor")
    assert done.returncode == 0, done.stdout
    assert "[ok  ] a sandbox container runs python3 and pytest" in done.stdout
    # The image the bootstrap builds has the language servers, and the doctor says so.
    assert "[ok  ] language server for python: pyright-langserver" in done.stdout
    assert "[ok  ] language server for typescript: typescript-language-server" in done.stdout


def test_prune_removes_leftovers_of_dead_sessions_only(docker_ready: None, tmp_path: Path) -> None:
    client = docker.from_env()
    dead = subprocess.Popen(["true"])
    dead.wait()
    state = tmp_path / "state" / "abc"
    (state / "kiln-git").mkdir(parents=True)
    (state / "outputs").mkdir()
    leftover = client.containers.create(
        DEFAULT_IMAGE,
        ["sleep", "infinity"],
        labels={**engine.labels("leftover", state, tmp_path), "kiln.pid": str(dead.pid)},
        network_mode="none",
    )
    alive = client.containers.create(
        DEFAULT_IMAGE,
        ["sleep", "infinity"],
        labels=engine.labels("alive", tmp_path / "x", tmp_path),
        network_mode="none",
    )
    try:
        done = kiln("sandbox", "prune")
        assert done.returncode == 0, done.stderr
        ids = {c.id for c in client.containers.list(all=True)}
        assert leftover.id not in ids and alive.id in ids  # this test process is still alive
        assert not state.exists()
    finally:
        alive.remove(force=True)


def test_build_streams_progress_and_tags(docker_ready: None, tmp_path: Path) -> None:
    from sandbox.images import build_image

    (tmp_path / "Dockerfile").write_text(f"FROM {DEFAULT_IMAGE}\nRUN echo built > /kiln-marker\n")
    client = docker.from_env()
    tag = "kiln-test-build:latest"
    try:
        build_image(client, context=tmp_path, dockerfile=tmp_path / "Dockerfile", tag=tag)
        out = client.containers.run(tag, ["cat", "/kiln-marker"], remove=True, network_mode="none")
        assert out == b"built\n"
        (tmp_path / "Dockerfile").write_text(f"FROM {DEFAULT_IMAGE}\nRUN exit 3\n")
        with pytest.raises(Exception, match="fix the Dockerfile"):
            build_image(client, context=tmp_path, dockerfile=tmp_path / "Dockerfile", tag=tag)
    finally:
        client.images.remove(tag, force=True)
