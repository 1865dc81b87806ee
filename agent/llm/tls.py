"""The TLS context of every HTTP client of the process, by the server it talks to.

httpx makes a context for each client it creates, reading the whole CA bundle each time
(about 20 ms of CPU); a session makes several clients (the model's, the window's probes,
the fast model's), all verifying the same way, so they share one, made on first use.
A client for a plain-http server on this machine (the embedded model, Ollama, a
llama.cpp server) never speaks TLS, so it reads no bundle at all: its context trusts no
certificate, so a TLS connection it were ever asked to make fails instead of going
unverified.
"""

from __future__ import annotations

import functools
import ipaddress
import ssl
from urllib.parse import urlsplit

import httpx


def tls_context(url: str) -> ssl.SSLContext:
    """The context for a client whose requests go to `url`'s server."""
    return _trusting_nothing() if _plain_local(url) else _verifying()


@functools.cache
def _verifying() -> ssl.SSLContext:
    """What `httpx.AsyncClient(verify=True)` would make (certifi's CA bundle, or the
    SSL_CERT_FILE / SSL_CERT_DIR the environment names)."""
    return httpx.create_ssl_context()


@functools.cache
def _trusting_nothing() -> ssl.SSLContext:
    # Verification and hostname checks on, no CA loaded: no certificate can pass.
    return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


def _plain_local(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme.lower() != "http":
        return False
    host = (parts.hostname or "").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
