"""Must hold: nothing inside the Docker sandbox reaches the host repository, kiln's
environment or the host's loopback, and the container is locked down."""

from __future__ import annotations

import asyncio
import http.server
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import docker
import pytest

from sandbox.docker_backend import DockerSandbox
from tests.sandbox.conftest import tree_hash

MakeSandbox = Callable[..., DockerSandbox]


@pytest.mark.docker
async def test_the_workspace_is_an_overlay_of_the_repository_that_prune_can_find(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    # The engine makes the volume with the container: it must still carry kiln's labels
    # (a crashed kiln's volumes are found by them) and nothing of the image's /workspace.
    sandbox = make_sandbox(repo)
    await sandbox.start()
    assert sandbox.mode == "overlay" and sandbox.volume_name is not None
    volume = docker.from_env().volumes.get(sandbox.volume_name).attrs
    assert volume["Labels"]["kiln.session"] == sandbox.session_id
    assert volume["Labels"]["kiln.pid"] == str(os.getpid())
    assert volume["Options"]["o"].startswith(f"lowerdir={sandbox.repo},upperdir=")
    listing = await sandbox.exec("ls -A")
    assert listing.output.split() == sorted(
        [".git", ".gitignore", "README.md", "data.bin", "notes.txt", "run.sh", "src", "tests"]
    )  # the ignored .env, build/ and .pytest_cache/ hidden


@pytest.mark.docker
async def test_destructive_commands_leave_host_repo_byte_identical(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    before = tree_hash(repo)
    sandbox = make_sandbox(repo)
    await sandbox.start()
    assert sandbox.mode == "overlay"
    script = f"""
    ln -s {repo} escape_abs; ln -s ../../../../.. escape_rel; ln -s /kiln/objects objs
    echo pwned > escape_rel/tmp/pwned || true
    echo pwned > escape_abs/README.md || true
    touch /kiln/objects/pwned 2>&1 || true
    echo root::0:0::/:/bin/sh >> /etc/passwd; echo pwned > /etc/pwned
    git commit -qam wipe --no-verify || true; git gc -q --prune=now || true
    rm -rf /workspace/* /workspace/.git /workspace/.gitignore
    ls -A /workspace
    """
    result = await sandbox.exec(script)
    assert "Read-only file system" in result.output  # /kiln/objects is mounted read-only
    await sandbox.write_file("via_api.txt", b"x")
    assert tree_hash(repo) == before
    # The damage is real inside the workspace, and kiln still knows what changed against
    # the baseline; the container's own files are read-only (the disk limit needs that).
    listing = await sandbox.exec("ls -A /workspace; cat /etc/pwned 2>/dev/null || echo none")
    assert listing.output.split() == ["via_api.txt", "none"]
    changed = await sandbox.changed_files()
    assert "src/app.py" in changed and "README.md" in changed and "via_api.txt" in changed


@pytest.mark.docker
async def test_kiln_secrets_and_ignored_files_are_not_visible(
    repo: Path, make_sandbox: MakeSandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-kiln-own-secret")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-kiln-own-secret")
    sandbox = make_sandbox(repo)
    await sandbox.start()
    result = await sandbox.exec("env; cat /proc/1/environ | tr '\\0' '\\n'; ls -A")
    assert "kiln-own-secret" not in result.output
    assert "PAGER=cat" in result.output and "GIT_TERMINAL_PROMPT=0" in result.output
    names = set(result.output.split())
    assert {"src", "notes.txt", "README.md", ".git"} <= names  # untracked + .git visible
    assert ".env" not in names and "build" not in names  # ignored: hidden
    assert ".pytest_cache" not in names  # ignored by its own .gitignore: hidden too
    assert "sk-from-dotenv" not in (await sandbox.exec("grep -r sk-from . || true")).output


@pytest.fixture
def loopback_server() -> Iterator[tuple[int, list[str]]]:
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1], hits
    server.shutdown()


@pytest.mark.docker
async def test_host_loopback_is_unreachable(
    repo: Path, make_sandbox: MakeSandbox, loopback_server: tuple[int, list[str]]
) -> None:
    port, hits = loopback_server
    import urllib.request

    urllib.request.urlopen(f"http://127.0.0.1:{port}/from-host", timeout=5).close()
    assert hits == ["/from-host"]  # the server does answer on the host
    sandbox = make_sandbox(repo)
    await sandbox.start()
    probe = (
        "import urllib.request\n"
        f"for host in ('127.0.0.1', 'localhost', '172.17.0.1', 'host.docker.internal'):\n"
        "    try:\n"
        f"        urllib.request.urlopen(f'http://{{host}}:{port}/from-sandbox', timeout=2)\n"
        "        print('REACHED', host)\n"
        "    except Exception as exc:\n"
        "        print('blocked', host, type(exc).__name__)\n"
    )
    await sandbox.write_file("probe.py", probe.encode())
    result = await sandbox.exec("python3 probe.py; ip -o addr 2>/dev/null; cat /proc/net/dev")
    assert "REACHED" not in result.output
    assert result.output.count("blocked") == 4
    assert hits == ["/from-host"]
    assert "eth0" not in result.output  # no interface but loopback


@pytest.mark.docker
async def test_container_is_locked_down_labelled_and_removed(
    repo: Path, make_sandbox: MakeSandbox
) -> None:
    sandbox = make_sandbox(repo, memory="300m", pids_limit=77, cpus=1.5)
    await sandbox.start()
    client = docker.from_env()
    attrs = client.api.inspect_container(sandbox.container_id)
    host = attrs["HostConfig"]
    assert host["CapDrop"] == ["ALL"]
    assert host["SecurityOpt"] == ["no-new-privileges"]
    assert host["NetworkMode"] == "none"
    assert host["PidsLimit"] == 77
    assert host["Memory"] == 300 * 1024 * 1024
    assert host["NanoCpus"] == 1_500_000_000
    st = repo.stat()
    assert attrs["Config"]["User"] == f"{st.st_uid}:{st.st_gid}"
    assert attrs["Config"]["Labels"]["kiln.sandbox"] == "1"
    assert attrs["Config"]["Labels"]["kiln.session"] == sandbox.session_id
    status = await sandbox.exec("grep -E '^(CapEff|NoNewPrivs)' /proc/self/status")
    assert "CapEff:\t0000000000000000" in status.output and "NoNewPrivs:\t1" in status.output
    container_id, volume, layout = sandbox.container_id, sandbox.volume_name, sandbox.layout
    assert layout is not None
    await sandbox.close()
    # Removal happens in a detached process, so kiln's exit does not wait for the engine.
    for _ in range(300):
        if not (
            layout.root.exists()
            or client.containers.list(all=True, filters={"id": container_id})
            or client.volumes.list(filters={"name": volume})
        ):
            break
        await asyncio.sleep(0.05)
    assert not layout.root.exists()
    assert not client.containers.list(all=True, filters={"id": container_id})
    assert not client.volumes.list(filters={"name": volume})
