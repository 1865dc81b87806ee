"""One measurement at a time on the local model server.

llama-cpp-python's server answers one request at a time and keeps one prompt cache, so
two measurements sharing it (`kiln eval` and the live tests, say) slow each other down
and evict each other's cached prompts: both numbers are then wrong. Each takes this
lock for its whole length; the second waits, and says so.
"""

from __future__ import annotations

import fcntl
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from agent.settings import paths

WAITING = (
    "Another measurement (kiln eval or the live tests) is using the local model server; "
    "waiting for it to end."
)


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


@contextmanager
def one_measurement(say: Callable[[str], None] = _stderr) -> Iterator[None]:
    folder = paths.state_dir() / "local"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "measure.lock", "a+") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            say(WAITING)
            fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
