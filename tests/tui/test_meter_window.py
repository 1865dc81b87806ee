"""Must hold: the meter shows how full the context window is once a request says so."""

from __future__ import annotations

from agent.events import WindowUsed
from tui.meter_state import MeterState


def test_the_meter_shows_the_window_fill_once_known() -> None:
    meter = MeterState()
    assert meter.cache_text() == "cache 0%"
    assert meter.apply(WindowUsed(3277, 8192))
    assert meter.cache_text() == "cache 0% · ctx 40%"
