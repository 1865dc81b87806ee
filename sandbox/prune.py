"""`kiln sandbox prune`: remove containers, volumes and state dirs a crashed kiln left behind.

Everything kiln creates carries the label `kiln.sandbox=1` and the pid of the kiln process
that made it; sandboxes whose kiln is still running are left alone.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

from docker.errors import APIError, NotFound

from sandbox import engine
from sandbox.workspace import state_root


def _owner_alive(labels: dict[str, str]) -> bool:
    try:
        pid = int(labels.get("kiln.pid", "0"))
    except ValueError:
        return False
    if pid <= 0 or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def prune_leftovers(everything: bool = False) -> int:
    """Remove leftovers (or, with everything=True, every kiln sandbox); returns how many."""
    client = engine.connect()
    removed = 0
    filters = {"label": f"{engine.LABEL}=1"}
    for container in client.api.containers(all=True, filters=filters):
        labels = container.get("Labels") or {}
        if not everything and _owner_alive(labels):
            continue
        try:
            client.api.remove_container(container["Id"], force=True)
        except NotFound:
            pass
        except APIError as exc:
            if exc.status_code != 409:  # 409: its removal is already under way elsewhere
                raise
        _remove_state(labels.get("kiln.state"))
        removed += 1
    for volume in client.api.volumes(filters=filters).get("Volumes") or []:
        labels = volume.get("Labels") or {}
        if not everything and _owner_alive(labels):
            continue
        with contextlib.suppress(NotFound):
            client.api.remove_volume(volume["Name"], force=True)
        _remove_state(labels.get("kiln.state"))
    return removed


def _remove_state(path: str | None) -> None:
    """Only ever delete directories that look like kiln sandbox state."""
    if not path:
        return
    state = Path(path)
    if (state / "kiln-git").is_dir() and (
        state.parent == state_root() or (state / "outputs").is_dir()
    ):
        shutil.rmtree(state, ignore_errors=True)
