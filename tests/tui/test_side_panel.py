"""The side panel's lines take their theme's colours as the session moves: the phase in the
accent colour, green once done and red once failed; the sandbox's state red on an error."""

from __future__ import annotations

from textual.color import Color
from textual.widget import Widget

from tests.tui.scenes import offline_app

SIZE = (120, 36)


def colour_of(widget: Widget, text: str) -> str:
    """The colour `text` is painted in, where `widget` draws it."""
    for y in range(widget.size.height):
        for segment in widget.render_line(y):
            if text in segment.text and segment.style and segment.style.color:
                triplet = segment.style.color.get_truecolor()
                return Color(*triplet).hex
    raise AssertionError(f"{text!r} is not drawn")


async def test_the_phase_and_the_sandbox_state_change_colour_with_what_they_say() -> None:
    async with offline_app().run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.pause()
        variables = app.get_css_variables()
        theme = {name: Color.parse(variables[name]).hex for name in ("accent", "error", "success")}
        side = app.main.side  # type: ignore[attr-defined]
        plan, sandbox = side.query_one("#plan"), side.query_one("#sandbox")
        assert colour_of(plan, "phase: idle") == theme["accent"]
        assert colour_of(plan, "PLAN") != theme["accent"]  # a title keeps its own
        side.set_phase("failed")
        await pilot.pause()
        assert colour_of(plan, "phase: failed") == theme["error"]
        side.set_phase("done")
        await pilot.pause()
        assert colour_of(plan, "phase: done") == theme["success"]
        side.set_phase("test")
        await pilot.pause()
        assert colour_of(plan, "phase: test") == theme["accent"]

        side.set_sandbox("not running", "error")
        await pilot.pause()
        assert colour_of(sandbox, "not running") == theme["error"]
        side.set_sandbox("ready · docker")
        await pilot.pause()
        assert colour_of(sandbox, "ready · docker") != theme["error"]
