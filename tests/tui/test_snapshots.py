"""Snapshots of the main screen, the approval dialog and each shipped theme.

Deterministic: fixed terminal size, no session (so no clock and no sandbox), recorded events.
Update after an intended change with `pytest tests/tui --snapshot-update`.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

import themes
from agent.approval import Action, ApprovalRequest
from tests.tui.scenes import DIFF, SESSION, offline_app
from tui.screens.approval import ApprovalScreen

SIZE = (120, 36)


async def _draw_session(pilot: Pilot[int]) -> None:
    # The snapshot's pilot starts as the app is ready, before its main screen (the default
    # screen) has composed its widgets: they are there once the app is idle.
    await pilot.pause()
    for event in SESSION:
        await pilot.app.show(event)  # type: ignore[attr-defined]
    await pilot.pause()
    pilot.app.main.prompt.blur()  # type: ignore[attr-defined]  # no blinking cursor
    await pilot.pause()


def test_main_screen(snap_compare) -> None:
    assert snap_compare(offline_app(), terminal_size=SIZE, run_before=_draw_session)


@pytest.mark.parametrize("split", [False, True], ids=["unified", "side-by-side"])
def test_approval_dialog(snap_compare, split: bool) -> None:
    async def ask(pilot: Pilot[int]) -> None:
        await _draw_session(pilot)
        request = ApprovalRequest("r1", Action.EDIT, "edit calc.py", diff=DIFF, path="calc.py")
        pilot.app.push_screen(ApprovalScreen(request))
        await pilot.pause()
        if split:
            await pilot.press("v")
            await pilot.pause()

    assert snap_compare(offline_app(), terminal_size=SIZE, run_before=ask)


@pytest.mark.parametrize("name", list(themes.KILN_THEMES))
def test_each_theme(snap_compare, name: str) -> None:
    async def switch(pilot: Pilot[int]) -> None:
        pilot.app.theme = name
        await _draw_session(pilot)

    assert snap_compare(offline_app(), terminal_size=SIZE, run_before=switch)
