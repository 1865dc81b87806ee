"""One TLS context for every HTTP client of the process.

httpx makes a context for each client it creates, reading the whole CA bundle each time
(about 20 ms of CPU); a session makes several clients (the model's, the window's probes,
the fast model's), all verifying the same way, so they share one, made on first use.
"""

from __future__ import annotations

import functools
import ssl

import httpx


@functools.cache
def tls_context() -> ssl.SSLContext:
    """What `httpx.AsyncClient(verify=True)` would make (certifi's CA bundle, or the
    SSL_CERT_FILE / SSL_CERT_DIR the environment names)."""
    return httpx.create_ssl_context()
