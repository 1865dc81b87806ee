"""Which TLS context a model client gets: a plain-http server on this machine never needs
one, so none reads the CA bundle, and the one it gets trusts no certificate; every other
server gets the verifying one."""

from __future__ import annotations

import http.server
import ssl
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from agent.errors import ModelError
from agent.llm import tls
from agent.llm.openai_compat import OpenAICompatClient
from agent.llm.profile import ModelProfile
from agent.llm.scripted.server import ScriptedServer


@pytest.fixture
def unreadable_bundle(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """Reading the CA bundle fails from here on, so a test sees whether it was read."""
    bundle = tmp_path / "bundle.pem"
    bundle.write_text("not a certificate\n")
    monkeypatch.setenv("SSL_CERT_FILE", str(bundle))
    tls._verifying.cache_clear()
    yield
    tls._verifying.cache_clear()


@pytest.mark.usefixtures("unreadable_bundle")
async def test_a_plain_local_server_reads_no_ca_bundle() -> None:
    for url in ("http://127.0.0.1:8080/v1", "http://localhost:11434", "http://[::1]:8000/v1"):
        tls.tls_context(url)
    with ScriptedServer({"turns": [{"text": "hello"}]}) as server:
        client = OpenAICompatClient(ModelProfile(base_url=server.base_url, model="m"))
        try:
            events = [event async for event in client.stream([], [])]
        finally:
            await client.aclose()
    assert any("hello" in str(event) for event in events)
    # Anything else is verified, so it reads the bundle (here: and fails).
    for url in ("https://127.0.0.1:8443/v1", "http://10.1.2.3:8000/v1", "https://api.x.ai/v1"):
        with pytest.raises(ssl.SSLError):
            tls.tls_context(url)


def test_the_plain_local_context_trusts_no_certificate(tmp_path: Path) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    served = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    served.load_cert_chain(cert, key)
    server = http.server.HTTPServer(("127.0.0.1", 0), _Ok)
    server.socket = served.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"https://127.0.0.1:{server.server_address[1]}/"
    try:
        trusting = ssl.create_default_context(cafile=str(cert))
        assert httpx.get(url, verify=trusting).text == "ok"  # the server itself is fine
        with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
            httpx.get(url, verify=tls.tls_context("http://127.0.0.1:1/v1"))
    finally:
        server.shutdown()
        server.server_close()


class _Ok(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *_args: object) -> None:
        pass


def _self_signed(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


async def _ask(base_url: str, events: list[object] | None = None) -> str:
    client = OpenAICompatClient(ModelProfile(base_url=base_url, model="m", max_retries=3))
    events = [] if events is None else events
    try:
        async for event in client.stream([], []):
            events.append(event)
        return " ".join(str(event) for event in events)
    finally:
        await client.aclose()


async def test_a_model_server_over_https_is_verified_against_the_ca_bundle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scripted model behind a certificate no CA signed: a model client kiln builds
    refuses it, and takes it once the bundle (SSL_CERT_FILE) names it."""
    cert, key = _self_signed(tmp_path)
    served = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    served.load_cert_chain(cert, key)
    server = ScriptedServer({"turns": [{"text": "hello"}, {"text": "hello"}]})
    server._httpd.socket = served.wrap_socket(server._httpd.socket, server_side=True)
    base_url = server.base_url.replace("http://", "https://")
    tls._verifying.cache_clear()
    try:
        with server:
            before: list[object] = []
            with pytest.raises(ModelError, match="presented a certificate kiln does not trust"):
                await _ask(base_url, before)
            assert before == []  # no retry: a certificate does not heal by asking again
            assert server.chat_requests == []  # nothing was sent over the refused connection
            monkeypatch.setenv("SSL_CERT_FILE", str(cert))
            tls._verifying.cache_clear()
            assert "hello" in await _ask(base_url)
            assert len(server.chat_requests) == 1
    finally:
        tls._verifying.cache_clear()
