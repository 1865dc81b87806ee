"""`kiln run`'s first steps: the task and the settings read, then the sandbox's container
asked for at once, before the session's modules load.

Loading the session, the model client and asyncio takes a short run's one CPU about as
long as the engine takes to create and start a container. Asked for first (in a thread,
sandbox/launch.py), the container starts while kiln loads, not after the imports that
asked for it. Only for one run on the Docker backend: `--attempts` starts several sandboxes
and another backend has no engine to wait for.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from agent.headless.prepare import prepare
from agent.settings.config import Settings

if TYPE_CHECKING:
    from sandbox.launch import EarlyLaunch


def main(args: argparse.Namespace) -> int:
    repo, settings = prepare(args)
    early = _asked_early(args, repo, settings)
    try:
        from agent.headless.attempts import run_main

        return run_main(args, repo, settings, early)
    except BaseException:  # Ctrl+C while kiln loads: the container it asked for goes too
        if early is not None:
            early.abandon()
        raise


def _asked_early(args: argparse.Namespace, repo: Path, settings: Settings) -> EarlyLaunch | None:
    if getattr(args, "attempts", 1) > 1 or settings.sandbox.backend != "docker":
        return None
    from sandbox.launch import begin

    return begin(repo, settings.sandbox, os.urandom(6).hex())
