"""Remove one sandbox's container, volume and state dir, detached from kiln.

Removing a container and its overlay volume takes the engine a tenth of a second or more;
nobody should wait for that when kiln exits. `close()` stops every command, then starts
this file as its own process (`python -I -S reaper.py SOCKET CONTAINER VOLUME STATE`) and
returns. Stdlib only, so it starts in milliseconds. If it cannot finish, the leftovers
still carry kiln's labels with a dead owner pid, and `kiln sandbox prune` removes them.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote


def _delete(socket_path: str, url: str) -> int:
    # Imported here: only the detached process speaks HTTP; kiln, which imports this
    # module to start it, never does (http.client and the email package it brings: ~8 ms).
    import http.client

    class UnixConnection(http.client.HTTPConnection):
        def connect(self) -> None:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(self.timeout)
            sock.connect(socket_path)
            self.sock = sock

    conn = UnixConnection("localhost", timeout=60)
    try:
        conn.request("DELETE", url)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def reap(socket_path: str, container: str, volume: str, state: str) -> None:
    if container:
        _delete(socket_path, f"/containers/{quote(container)}?force=1")
    if volume:
        for _ in range(50):  # the engine may still be releasing the volume's mount
            if _delete(socket_path, f"/volumes/{quote(volume)}?force=1") != 409:
                break
            time.sleep(0.1)
    if state:
        shutil.rmtree(state, ignore_errors=True)


def engine_socket() -> str | None:
    """The local engine's unix socket, or None when the engine is reached another way."""
    host = os.environ.get("DOCKER_HOST") or "unix:///var/run/docker.sock"
    if not host.startswith("unix://"):
        return None
    path = host[len("unix://") :]
    return path if os.path.exists(path) else None


def reap_detached(socket_path: str, container: str, volume: str, state: Path | None) -> None:
    """Start the removal in a process of its own and return at once."""
    proc = subprocess.Popen(
        [sys.executable, "-I", "-S", __file__, socket_path, container, volume, str(state or "")],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # Ctrl+C in the terminal kiln ran in must not stop it
    )
    # Collect its exit status if kiln lives on (the TUI), so no zombie is left behind.
    threading.Thread(target=proc.wait, name="kiln-reaper-wait", daemon=True).start()


if __name__ == "__main__":
    reap(*sys.argv[1:5])
