"""Where a failure the person can cause becomes one sentence, and the sandbox is chosen.

The sandbox package knows nothing of kiln's errors: its SandboxError (no engine, no
image, a container gone) becomes `agent.errors.SandboxError` here, so every front end
catches one kind of error and prints one sentence. Starting the sandbox lives here too:
with the default backend and no Docker engine, kiln falls back to bubblewrap where it
runs, and says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from agent.errors import KilnError, SandboxError
from agent.settings.config import Settings
from sandbox.base import Sandbox
from sandbox.base import SandboxError as SandboxProblem

if TYPE_CHECKING:
    from sandbox.launch import EarlyLaunch

BWRAP_FALLBACK = (
    "No Docker engine answers, so this session runs in the bubblewrap sandbox (no network, "
    "but no memory, CPU or process limits); start Docker for full isolation "
    "(docs/sandbox.md)."
)


@contextlib.contextmanager
def one_sentence() -> Iterator[None]:
    """Let KilnErrors through and turn the sandbox's own errors into one."""
    try:
        yield
    except KilnError:
        raise
    except SandboxProblem as exc:
        raise SandboxError(str(exc)) from None


def backend_chosen(settings: Settings) -> bool:
    """Whether the person named the backend (then kiln never swaps it for another)."""
    return settings.sources.get("sandbox.backend", "default") != "default"


def create_sandbox(
    repo: Path,
    settings: Settings,
    session_id: str,
    backend: str = "",
    early: EarlyLaunch | None = None,
) -> Sandbox:
    from sandbox.factory import create_sandbox as create

    config = settings.sandbox
    if backend:
        config = dataclasses.replace(config, backend=backend)
    with one_sentence():
        return create(repo, config, session_id=session_id, early=early)


async def start_sandbox(
    repo: Path,
    settings: Settings,
    session_id: str,
    made: list[Sandbox],
    notice: Callable[[str], None],
    progress: Callable[[str], None] | None = None,
    waiting: Callable[[], None] | None = None,
    early: EarlyLaunch | None = None,
) -> Sandbox:
    """Create (the backend's import is slow: in a thread) and start the session's sandbox.

    `made` gets every sandbox before it starts, so the caller closes whatever was made.
    `progress` gets each line a long start prints (the repository's setup). `waiting` is
    called once the start has nothing left to do but wait for the engine (`Sandbox.waiting`).
    `early`: its container's launch, begun already (sandbox/launch.py).
    """
    from sandbox.engine import EngineUnavailable

    box = await asyncio.to_thread(create_sandbox, repo, settings, session_id, "", early)
    made.append(box)
    if waiting is not None:
        box.waiting = waiting
    if progress is not None:
        box.progress = progress
    try:
        await box.start()
        for note in box.notes:
            notice(note)
        return box
    except EngineUnavailable as exc:
        if backend_chosen(settings) or not shutil.which("bwrap"):
            raise SandboxError(str(exc)) from None
        failure = str(exc)
    except SandboxProblem as exc:
        raise SandboxError(str(exc)) from None
    await box.close()
    made.remove(box)
    fallback = create_sandbox(repo, settings, session_id, backend="bwrap")
    made.append(fallback)
    try:
        with one_sentence():
            await fallback.start()
        for note in fallback.notes:
            notice(note)
    except SandboxError as bwrap_failure:
        raise SandboxError(
            f"{failure} (the bubblewrap fallback did not start either: {bwrap_failure.message})"
        ) from None
    notice(BWRAP_FALLBACK)
    return fallback
