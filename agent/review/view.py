"""The model's read-only tools over the reviewed tree, without a container.

read_file, list_files, search and find_symbol reach files through the Sandbox protocol;
a review only reads, so this view gives them the checkout directly. It runs no command of
the model's: the only commands it takes are the two kiln's own read-only tools compose
(`git ls-files`, `git grep`, their arguments quoted), and it writes nothing.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from pathlib import Path

from sandbox.base import PROBE_TIMEOUT_S, ExecResult, NoServices

ALLOWED = ("git ls-files ", "git grep ")
READ_ONLY = "a review only reads files; no command runs here"
OUTPUT_CAP = 64 * 1024


class ReadOnlyView(NoServices):
    backend = "read-only"

    def __init__(self, root: Path) -> None:
        self.repo = root
        self.notes: list[str] = []
        self.baseline: str | None = None
        self.last_checkpoint: str | None = None
        self.progress: Callable[[str], None] = lambda line: None
        self.waiting: Callable[[], None] = lambda: None

    async def start(self) -> None:
        return None

    def _inside(self, path: str) -> Path:
        target = (self.repo / path).resolve()
        if target != self.repo.resolve() and self.repo.resolve() not in target.parents:
            raise FileNotFoundError(path)  # a link out of the tree reads as nothing there
        return target

    async def read_file(self, path: str) -> bytes:
        return await asyncio.to_thread(self._inside(path).read_bytes)

    async def probe(self, script: str, *, timeout: float = PROBE_TIMEOUT_S) -> tuple[int, str]:
        return 126, READ_ONLY

    async def exec(
        self, cmd: str, *, timeout: float | None = None, cwd: str | None = None
    ) -> ExecResult:
        if not cmd.startswith(ALLOWED):
            return ExecResult(126, READ_ONLY, 0, 0.0)
        started = time.monotonic()
        process = await asyncio.create_subprocess_exec(
            "/bin/sh", "-c", cmd, cwd=self.repo, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT, env={**os.environ, "GIT_PAGER": "cat"},
        )  # fmt: skip
        try:
            out, _ = await asyncio.wait_for(process.communicate(), timeout or 60)
        except TimeoutError:
            process.kill()
            await process.wait()
            return ExecResult(124, "", 0, time.monotonic() - started, timed_out=True)
        text = out.decode("utf-8", "replace")
        return ExecResult(
            process.returncode or 0, text[:OUTPUT_CAP], len(out), time.monotonic() - started,
            truncated=len(text) > OUTPUT_CAP,
        )  # fmt: skip

    async def write_file(self, path: str, data: bytes) -> None:
        raise PermissionError("a review writes nothing")

    async def diff(self) -> str:
        return ""

    async def changed_files(self) -> list[str]:
        return []

    def snapshot_soon(self) -> None:
        return None  # nothing ever changes

    async def rebaseline(self) -> None:
        return None

    async def checkpoint(self, label: str) -> str:
        raise PermissionError("a review keeps no checkpoints")

    async def restore(self, ref: str) -> None:
        raise PermissionError("a review keeps no checkpoints")

    async def close(self) -> None:
        return None
