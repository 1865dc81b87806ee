"""Driving the real app: a real Session on a real repository, the scripted model server
on 127.0.0.1 and the Docker sandbox."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from agent.approval import Mode
from agent.events import Event, Finished
from agent.llm.scripted.server import ScriptedServer
from agent.settings.config import load_settings
from tui.app import KilnApp
from tui.screens.approval import ApprovalScreen

SIZE = (120, 40)


def live_app(repo: Path, server: ScriptedServer, mode: Mode = Mode.ASK, **kwargs: Any) -> KilnApp:
    settings = load_settings(
        repo,
        {"models.main.base_url": server.base_url, "models.main.model": "scripted-model"},
        env={},
    )
    return KilnApp(settings, repo, mode, **kwargs)


async def wait_for(pilot: Pilot[Any], check: Callable[[], Any], timeout: float = 60.0) -> Any:
    """Let the app run until `check()` is truthy; fail with a clear message after `timeout`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        value = check()
        if value:
            return value
        await pilot.pause(0.05)
    raise AssertionError(f"timed out after {timeout}s waiting for {check}")


async def ready(pilot: Pilot[Any]) -> KilnApp:
    app: KilnApp = pilot.app  # type: ignore[assignment]
    await wait_for(pilot, lambda: app.session is not None and app.session.sandbox is not None)
    await wait_for(pilot, lambda: "ready" in str(app.main.side.query_one("#sandbox").render()))
    return app


async def submit(pilot: Pilot[Any], text: str) -> None:
    app: KilnApp = pilot.app  # type: ignore[assignment]
    app.main.prompt.load_text(text)
    app.main.prompt.focus()
    await pilot.press("enter")


async def question(pilot: Pilot[Any]) -> ApprovalScreen:
    return await wait_for(
        pilot, lambda: pilot.app.screen if isinstance(pilot.app.screen, ApprovalScreen) else None
    )


def finished(app: KilnApp) -> Finished | None:
    events: list[Event] = app.session.events if app.session else []
    done = [e for e in events if isinstance(e, Finished)]
    return done[-1] if done and not app.running else None


def transcript_text(app: KilnApp) -> str:
    return "\n".join(str(w.render()) for w in app.main.transcript.query("Static"))


@contextlib.asynccontextmanager
async def running(app: KilnApp) -> AsyncIterator[Pilot[Any]]:
    async with app.run_test(size=SIZE) as pilot:
        try:
            yield pilot
        finally:
            await app.close_session()
