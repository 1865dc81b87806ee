"""The few Docker Engine API calls a sandbox session makes, spoken directly over the socket.

The docker SDK takes a tenth of a second to import (requests, urllib3, its own models),
and a short `kiln run` pays that before its container can even be asked for. A session
needs a dozen endpoints, so this module speaks them with the standard library: JSON
requests over the engine's unix socket (or tcp, with TLS from DOCKER_CERT_PATH like the
docker CLI), and the connection upgrade `docker exec` streams over. Image builds, prune
and doctor keep using the SDK (sandbox.engine).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlencode, urlsplit

from sandbox.engine import EngineUnavailable

if TYPE_CHECKING:
    import ssl

# Unversioned paths speak the engine's own API version; every call here has been stable
# for years, and engines drop support for old pinned versions.
API = ""


class EngineError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"{status}: {message}")
        self.status = status
        self.message = message


class EngineNotFound(EngineError):
    """404: no such container, volume, image or exec."""


class Hijacked:
    """An exec's raw stream after the HTTP upgrade; bytes read past the headers come first."""

    def __init__(self, sock: socket.socket, pending: bytes) -> None:
        self.sock = sock
        self._pending = pending

    def recv(self, n: int) -> bytes:
        if self._pending:
            data, self._pending = self._pending[:n], self._pending[n:]
            return data
        return self.sock.recv(n)

    def sendall(self, data: bytes) -> None:
        self.sock.sendall(data)

    def settimeout(self, timeout: float | None) -> None:
        self.sock.settimeout(timeout)

    def shutdown(self, how: int) -> None:
        self.sock.shutdown(how)

    def close(self) -> None:
        self.sock.close()


class Engine:
    def __init__(self, host: str, timeout: float = 60) -> None:
        self.host = host
        self.timeout: float | None = timeout
        parts = urlsplit(host)
        self._unix = parts.path if parts.scheme == "unix" else None
        self._addr = (parts.hostname or "localhost", parts.port or 2375)
        self._tls: ssl.SSLContext | None = None
        if parts.scheme == "tcp" and os.environ.get("DOCKER_TLS_VERIFY"):
            self._tls = _tls_context()
        elif parts.scheme not in ("unix", "tcp"):
            raise EngineUnavailable(
                f"kiln reaches the Docker engine over a unix socket or tcp, not {host}; "
                "forward the engine's socket (e.g. `ssh -L`) and set DOCKER_HOST to it."
            )

    # -- transport -------------------------------------------------------------------
    def _socket(self) -> socket.socket:
        if self._unix is not None:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(self.timeout)
            sock.connect(self._unix)
            return sock
        sock = socket.create_connection(self._addr, timeout=self.timeout)
        if self._tls is not None:
            return self._tls.wrap_socket(sock, server_hostname=self._addr[0])
        return sock

    def request(
        self,
        method: str,
        path: str,
        params: dict[str, Any] | None = None,
        body: Any = None,
        *,
        raw_body: bytes | None = None,
        content_type: str = "application/json",
    ) -> Any:
        """One call; the decoded JSON answer (None when empty), or EngineError."""
        url = API + path + ("?" + urlencode(params) if params else "")
        data = raw_body if raw_body is not None else (None if body is None else _dumps(body))
        try:
            status, payload = self._exchange(method, url, data, content_type)
        except OSError as exc:
            raise _unavailable(self.host, exc) from None
        if status >= 400:
            raise _error(status, payload)
        return json.loads(payload) if payload.strip() else None

    def _exchange(
        self, method: str, url: str, data: bytes | None, content_type: str = ""
    ) -> tuple[int, bytes]:
        """One request on a connection of its own, which the engine closes after answering
        (or once a sized answer is whole): its status and body."""
        head = f"{method} {url} HTTP/1.1\r\nHost: docker\r\nConnection: close\r\n"
        if data is not None:
            head += f"Content-Type: {content_type}\r\n"
        if data is not None or method in ("POST", "PUT"):
            head += f"Content-Length: {len(data or b'')}\r\n"
        with self._socket() as sock:
            sock.sendall(head.encode() + b"\r\n" + (data or b""))
            received = b""
            while chunk := sock.recv(65536):
                received += chunk
                if _whole(received):
                    break
        return _parsed(received)

    def hijack(self, path: str, body: Any = None) -> Hijacked:
        """POST with `Upgrade: tcp`: the connection becomes the exec's (or container's)
        byte stream."""
        data = b"" if body is None else _dumps(body)
        head = (
            f"POST {API}{path} HTTP/1.1\r\nHost: docker\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n\r\n"
        )
        try:
            sock = self._socket()
            sock.sendall(head.encode() + data)
            buffer = b""
            while b"\r\n\r\n" not in buffer:
                chunk = sock.recv(4096)
                if not chunk:
                    raise ConnectionResetError("the engine closed the connection")
                buffer += chunk
        except OSError as exc:
            raise _unavailable(self.host, exc) from None
        header, _, rest = buffer.partition(b"\r\n\r\n")
        status = int(header.split(b" ", 2)[1])
        if status >= 400:
            sock.close()
            raise _error(status, rest)
        sock.settimeout(None)
        return Hijacked(sock, rest)

    # -- the calls a session makes ---------------------------------------------------
    def ping(self) -> None:
        try:
            self._exchange("GET", "/_ping", None)
        except OSError as exc:
            raise _unavailable(self.host, exc) from None

    def image_exists(self, name: str) -> bool:
        try:
            self.request("GET", f"/images/{quote(name, safe='')}/json")
        except EngineNotFound:
            return False
        return True

    def create_container(self, name: str, config: dict[str, Any]) -> str:
        return str(self.request("POST", "/containers/create", {"name": name}, config)["Id"])

    def start(self, container: str) -> None:
        self.request("POST", f"/containers/{container}/start")

    def attach(self, container: str, *, stdin: bool = True) -> Hijacked:
        """The main process's stdin and (multiplexed) stdout/stderr; attach before start so
        nothing it prints is missed."""
        query = f"stream=1&stdin={int(stdin)}&stdout=1&stderr=1"
        return self.hijack(f"/containers/{container}/attach?{query}")

    def wait(self, container: str) -> dict[str, Any]:
        """Block until the container has exited; {"StatusCode": n, ...}."""
        old, self.timeout = self.timeout, None  # setup may take many minutes
        try:
            result: dict[str, Any] = self.request("POST", f"/containers/{container}/wait")
        finally:
            self.timeout = old
        return result

    def commit(self, container: str, repo: str, tag: str, config: dict[str, Any]) -> None:
        self.request("POST", "/commit", {"container": container, "repo": repo, "tag": tag}, config)

    def image_id(self, name: str) -> str:
        return str(self.request("GET", f"/images/{quote(name, safe='')}/json")["Id"])

    def inspect_container(self, container: str, *, size: bool = False) -> dict[str, Any]:
        """The container's state; with `size`, SizeRw too: what it wrote to its own layer."""
        params = {"size": "1"} if size else None
        result: dict[str, Any] = self.request("GET", f"/containers/{container}/json", params)
        return result

    def images(self, reference: str) -> list[dict[str, Any]]:
        """Images named `reference` (any tag): Id, RepoTags, Created, Size, Labels each."""
        filters = json.dumps({"reference": [reference]})
        result: list[dict[str, Any]] = self.request("GET", "/images/json", {"filters": filters})
        return result or []

    def remove_image(self, image: str) -> bool:
        """Remove an image with all its tags; False when a container still uses it."""
        try:
            self.request("DELETE", f"/images/{quote(image, safe='')}", {"force": "1"})
        except EngineNotFound:
            return True
        except EngineError as exc:
            if exc.status == 409:
                return False
            raise
        return True

    def remove_container(self, container: str) -> None:
        with contextlib.suppress(EngineNotFound):
            self.request("DELETE", f"/containers/{container}", {"force": "1"})

    def remove_volume(self, name: str) -> None:
        with contextlib.suppress(EngineNotFound):
            self.request("DELETE", f"/volumes/{quote(name, safe='')}", {"force": "1"})

    def exec_create(
        self,
        container: str,
        argv: list[str],
        *,
        stdin: bool = False,
        workdir: str | None = None,
        env: dict[str, str] | None = None,
    ) -> str:
        body: dict[str, Any] = {
            "Cmd": argv,
            "AttachStdin": stdin,
            "AttachStdout": True,
            "AttachStderr": True,
            "Tty": False,
        }
        if workdir:
            body["WorkingDir"] = workdir
        if env:
            body["Env"] = [f"{k}={v}" for k, v in env.items()]
        return str(self.request("POST", f"/containers/{container}/exec", body=body)["Id"])

    def exec_start(self, exec_id: str) -> Hijacked:
        return self.hijack(f"/exec/{exec_id}/start", {"Detach": False, "Tty": False})

    def exec_inspect(self, exec_id: str) -> dict[str, Any]:
        result: dict[str, Any] = self.request("GET", f"/exec/{exec_id}/json")
        return result

    def put_archive(self, container: str, path: str, tar: bytes) -> None:
        self.request(
            "PUT",
            f"/containers/{container}/archive",
            {"path": path},
            raw_body=tar,
            content_type="application/x-tar",
        )


def connect(timeout: float = 60, *, ping: bool = True) -> Engine:
    """The engine DOCKER_HOST names (the local socket by default), answering a ping (or,
    with ping=False, the first request: either way no engine is EngineUnavailable)."""
    engine = Engine(os.environ.get("DOCKER_HOST") or "unix:///var/run/docker.sock", timeout)
    if ping:
        engine.ping()
    return engine


def _head(received: bytes) -> tuple[bytes, dict[bytes, bytes], bytes] | None:
    """An answer's status line, header fields (names in lower case) and body so far; None
    while its headers have not all come."""
    header, complete, body = received.partition(b"\r\n\r\n")
    if not complete:
        return None
    status_line, *lines = header.split(b"\r\n")
    fields = {
        name.strip().lower(): value.strip()
        for name, _, value in (line.partition(b":") for line in lines)
    }
    return status_line, fields, body


def _whole(received: bytes) -> bool:
    """Whether an answer with a Content-Length has all of it (others end at the close)."""
    head = _head(received)
    if head is None:
        return False
    size = head[1].get(b"content-length", b"")
    return size.isdigit() and len(head[2]) >= int(size)


def _parsed(response: bytes) -> tuple[int, bytes]:
    """The status and body of a whole HTTP/1.1 answer (sized, chunked or up to the close).
    An answer that is not one is a ConnectionResetError: the engine went away mid-answer."""
    head = _head(response)
    try:
        if head is None:
            raise ValueError("no end of the headers")
        status_line, fields, body = head
        status = int(status_line.split(b" ", 2)[1])
        if fields.get(b"transfer-encoding", b"").lower() == b"chunked":
            return status, _unchunked(body)
        if b"content-length" in fields:
            size = int(fields[b"content-length"])
            if len(body) < size:
                raise ValueError("a shorter body than announced")
            return status, body[:size]
        return status, body
    except (IndexError, ValueError):
        raise ConnectionResetError("the engine's answer ended early or is not HTTP") from None


def _unchunked(body: bytes) -> bytes:
    parts: list[bytes] = []
    at = 0
    while True:
        line_end = body.index(b"\r\n", at)  # ValueError when cut short
        size = int(body[at:line_end].split(b";", 1)[0], 16)
        if size == 0:
            return b"".join(parts)
        start = line_end + 2
        if len(body) < start + size:
            raise ValueError("a chunk cut short")
        parts.append(body[start : start + size])
        at = start + size + 2


def _dumps(body: Any) -> bytes:
    return json.dumps(body).encode()


def _error(status: int, payload: bytes) -> EngineError:
    try:
        message = str(json.loads(payload).get("message", ""))
    except (ValueError, AttributeError):
        message = payload.decode("utf-8", "replace").strip()
    return (EngineNotFound if status == 404 else EngineError)(status, message)


def _unavailable(host: str, exc: OSError) -> EngineUnavailable:
    if isinstance(exc, PermissionError):
        return EngineUnavailable(
            f"kiln may not talk to the Docker engine at {host}; add yourself to the "
            "`docker` group (then log in again) or use `--backend bwrap` (docs/sandbox.md)."
        )
    return EngineUnavailable(
        f"The Docker engine at {host} is not running; start it (e.g. `sudo systemctl "
        "start docker` or `dockerd &`) or use `--backend bwrap` (docs/sandbox.md)."
    )


def _tls_context() -> ssl.SSLContext:
    import ssl  # here: only an engine reached over tcp with TLS needs it

    certs = os.environ.get("DOCKER_CERT_PATH") or os.path.expanduser("~/.docker")
    context = ssl.create_default_context(cafile=os.path.join(certs, "ca.pem"))
    context.load_cert_chain(os.path.join(certs, "cert.pem"), os.path.join(certs, "key.pem"))
    return context
