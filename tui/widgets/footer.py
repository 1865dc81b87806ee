"""Textual's footer, composed again once per burst of changes to the bindings.

Textual's own schedules one recompose for each change (the focus set, the screen's stack,
a binding's action checked again), and each builds every key anew; while a resumed
session's end was drawn the footer was composed five times over, a tenth of the time to
paint it. Here a change while a recompose is due adds none: the one due reads them all.
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.widgets import Footer


class KilnFooter(Footer):
    _recompose_due = False

    def bindings_changed(self, screen: Screen[Any]) -> None:
        # As Footer.bindings_changed, but coalesced.
        self._bindings_ready = True
        if not screen.app.app_focus or self._recompose_due:
            return
        if self.is_attached and screen is self.screen:
            self._recompose_due = True
            self.call_after_refresh(self._recompose_once)

    async def _recompose_once(self) -> None:
        self._recompose_due = False
        await self.recompose()
