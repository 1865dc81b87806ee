"""One working session: a sandbox over the repository, a model client, the loop, the store.

Front ends (TUI, line mode, headless) hold a Session and read the events `run()` yields.
A session outlives one request: `run()` may be called again for a follow-up with the
conversation kept, `cancel()` interrupts the current request only.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

from agent.approval import Approver, Mode
from agent.config import Settings
from agent.events import Event, Usage
from agent.llm.base import ModelClient


class Session:
    def __init__(
        self,
        settings: Settings,
        repo: Path,
        approver: Approver,
        mode: Mode,
        *,
        session_id: str | None = None,
        client: ModelClient | None = None,
    ) -> None:
        self.settings = settings
        self.repo = repo
        self.approver = approver
        self.mode = mode
        self.session_id = session_id or ""
        self.client = client
        self.events: list[Event] = []

    async def start(self) -> None:
        """Start the sandbox, record the baseline, emit SessionStarted."""
        raise NotImplementedError

    def run(self, task: str) -> AsyncIterator[Event]:
        """One request: plan -> edit -> test -> correct until Finished."""
        raise NotImplementedError

    def cancel(self) -> None:
        """Interrupt the model request and any running command; run() yields Finished(CANCELLED)."""
        raise NotImplementedError

    async def diff(self) -> str:
        raise NotImplementedError

    async def apply(self) -> list[str]:
        raise NotImplementedError

    async def undo(self) -> str:
        raise NotImplementedError

    @property
    def usage(self) -> Usage:
        raise NotImplementedError

    @property
    def cost_usd(self) -> float:
        raise NotImplementedError

    @property
    def steps(self) -> int:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    @classmethod
    def load(
        cls,
        session_id: str,
        settings: Settings,
        approver: Approver,
        *,
        mode: Mode | None = None,
        client: ModelClient | None = None,
    ) -> Session:
        """Reopen a stored session (`--resume ID`, or "last"), history included."""
        raise NotImplementedError
