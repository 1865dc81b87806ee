"""The footer is composed again once for a burst of binding changes, not once for each (a
resumed session's first paint changed them five times), and still shows what changed."""

from __future__ import annotations

from textual.widgets._footer import FooterKey

from tests.tui.scenes import offline_app
from tui.widgets.footer import KilnFooter


async def test_a_burst_of_binding_changes_composes_the_footer_once() -> None:
    async with offline_app().run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        footer = pilot.app.screen.query_one(KilnFooter)
        composed = []
        compose = footer.compose
        footer.compose = lambda: (composed.append(1), compose())[1]  # type: ignore[method-assign]
        for _ in range(5):
            pilot.app.screen.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        assert len(composed) == 1
        keys = {key.description for key in footer.query(FooterKey)}
        assert {"interrupt", "mode", "quit"} <= keys
        pilot.app.screen.refresh_bindings()  # a later change composes it again
        await pilot.pause()
        await pilot.pause()
        assert len(composed) == 2
