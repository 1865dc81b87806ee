"""Must hold: a repository whose tests import a dependency shipped inside it as a wheel
gets it installed by the setup phase (offline), the fix lands, and the next session starts
from the cached image without running setup again. A failing setup is one sentence with
the log's tail; a repository cannot turn on the network for setup; a setup that writes
past the disk limit is stopped in one sentence and leaves no image."""

from __future__ import annotations

import json
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import docker
import pytest

from agent.llm.scripted.server import ScriptedServer
from agent.settings import paths, trust
from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import KILN
from tests.wheels import write_wheel

APP = "from tinydep import double\n\n\ndef quadruple(x):\n    return double(x) + x\n"
TESTS = "from app import quadruple\n\n\ndef test_quadruple():\n    assert quadruple(3) == 12\n"
FIX = [
    {"tool_calls": [{"name": "edit_file", "arguments": {
        "path": "src/app/__init__.py", "old_text": "return double(x) + x",
        "new_text": "return double(double(x))"}}]},
    {"tool_calls": [{"name": "finish", "arguments": {"summary": "quadruple doubles twice"}}]},
]  # fmt: skip
NOTHING = [{"tool_calls": [{"name": "finish", "arguments": {"summary": "nothing to do"}}]}]


def pyproject(marker: str, *, deps: str = '["tinydep"]') -> str:
    # The marker makes this test's dependency files, and so its setup image, its own.
    return (
        f'# {marker}\n[project]\nname = "app"\nversion = "0.1"\ndependencies = {deps}\n\n'
        '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n'
    )


@pytest.fixture
def setup_images() -> Iterator[None]:
    """Removes the setup images the test made."""
    client = docker.from_env()
    before = {image.id for image in client.images.list("kiln-setup")}
    yield
    for image in client.images.list("kiln-setup"):
        if image.id not in before:
            # A finished session's container is removed in the background: wait for that.
            # (The low-level list: the high-level one inspects each container it lists,
            # and fails on one removed in between.)
            for _ in range(100):
                if not client.api.containers(all=True, filters={"ancestor": image.id}):
                    break
                time.sleep(0.1)
            client.images.remove(image.id, force=True)


def wheel_repo(root: Path) -> Path:
    repo = make_git_repo(
        root,
        {
            "pyproject.toml": pyproject(uuid.uuid4().hex),
            "src/app/__init__.py": APP,
            "tests/test_app.py": TESTS,
        },
    )
    write_wheel(repo / "wheels", "tinydep", "1.0", "def double(x):\n    return 2 * x\n")
    subprocess.run(["git", "-C", str(repo), "add", "wheels"], check=True)
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "wheel"],
        check=True,
    )  # fmt: skip
    return repo


def kiln_run(repo: Path, turns: list[dict[str, object]], *extra: str) -> tuple[dict, str, int]:
    """(the result object, stderr and every notice joined, exit code). A script that changes
    nothing is asked a question: a change finished with nothing changed is no success."""
    task = "What does this repository hold?" if turns is NOTHING else "make quadruple right"
    with ScriptedServer(turns) as server:
        done = subprocess.run(
            [KILN, "run", task, "--repo", str(repo), "--approval", "full-auto",
             "--output-format", "stream-json", "--base-url", server.base_url, "--model", "m",
             *extra],
            capture_output=True, text=True, timeout=600,
        )  # fmt: skip
    events = [json.loads(line) for line in done.stdout.splitlines()]
    notices = [e["message"] for e in events if e["type"] == "notice"]
    return events[-1], "\n".join([done.stderr, *notices]), done.returncode


def test_setup_installs_a_shipped_wheel_once_and_the_next_session_starts_from_the_cache(
    docker_ready: None, setup_images: None, tmp_path: Path
) -> None:
    repo = wheel_repo(tmp_path / "repo")

    result, stderr, code = kiln_run(repo, FIX, "--apply")
    assert "[setup] $ python3 -m venv" in stderr and "Successfully installed" in stderr
    assert "--no-index --find-links wheels" in stderr  # offline, from the shipped wheel
    assert result["tests_before"]["failed"] == 1  # the tests ran: the import worked
    assert code == 0 and result["status"] == "done", stderr
    assert result["tests_after"]["passed"] == 1
    assert "double(double(x))" in (repo / "src/app/__init__.py").read_text()

    again, stderr, code = kiln_run(repo, NOTHING)
    assert "[setup]" not in stderr  # the cached image: setup did not run again
    assert "cached" in stderr
    assert code == 0 and again["tests_before"]["passed"] == 1


def test_a_failing_setup_is_one_sentence_with_the_log_tail(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = make_git_repo(
        tmp_path / "repo",
        {
            "app.py": "x = 1\n",
            ".kiln.toml": '[sandbox]\nsetup = ["echo preparing", "echo no such thing >&2; exit 7"]\n',
        },
    )
    trust.trust(repo)  # a repository's own setup runs only once the person trusted it
    result, stderr, code = kiln_run(repo, NOTHING)
    assert code != 0 and result["status"] == "error"
    message = result["summary"]
    assert "setup failed (exit 7" in message and "no such thing" in message
    assert "Traceback" not in stderr


def test_a_proposed_setup_that_cannot_work_offline_is_a_note_and_the_session_goes_on(
    docker_ready: None, setup_images: None, tmp_path: Path
) -> None:
    # A dependency that is nowhere to be found offline: pip fails; kiln says so and runs.
    repo = make_git_repo(
        tmp_path / "repo",
        {
            "pyproject.toml": pyproject(uuid.uuid4().hex, deps='["not-shipped-anywhere"]'),
            "app.py": "x = 1\n",
        },
    )
    result, stderr, _ = kiln_run(repo, NOTHING)
    assert result["status"] == "answered", stderr
    assert "without the proposed setup" in stderr and "not-shipped-anywhere" in stderr
    # The failure is remembered: the next session does not try again with the same files.
    _, stderr, _ = kiln_run(repo, NOTHING)
    assert "[setup]" not in stderr and "failed before" in stderr


def test_a_setup_writing_past_the_disk_limit_is_stopped_in_one_sentence(
    docker_ready: None, setup_images: None, tmp_path: Path
) -> None:
    paths.user_config_file().parent.mkdir(parents=True, exist_ok=True)
    paths.user_config_file().write_text('[sandbox]\ndisk_limit = "200m"\n')
    # Many files, none past the file size limit: 400 MB in all, if nothing stops it.
    writer = "for i in $(seq 40); do head -c 10000000 /dev/zero > /opt/f$i; sleep 0.05; done"
    repo = make_git_repo(
        tmp_path / "repo",
        {"app.py": "x = 1\n", ".kiln.toml": f"[sandbox]\nsetup = [{json.dumps(writer)}]\n"},
    )
    trust.trust(repo)
    client = docker.from_env()
    before = {image.id for image in client.images.list("kiln-setup")}

    result, stderr, code = kiln_run(repo, NOTHING)
    assert code != 0 and result["status"] == "error"
    assert (
        "past the disk limit of 200m ([sandbox] disk_limit), so kiln stopped it"
        in (result["summary"])
    )
    assert "Traceback" not in stderr
    assert {image.id for image in client.images.list("kiln-setup")} == before
