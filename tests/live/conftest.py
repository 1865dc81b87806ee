"""Live tests use the real installed local model, so they keep the real data/state dirs."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from agent.local.measuring import one_measurement
from agent.local.trial import TrialResult, summary

RESULTS: list[TrialResult] = []


@pytest.fixture(autouse=True)
def _isolated_xdg(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Overrides the suite-wide fixture: config and cache stay isolated, but the installed
    model (XDG data) and the running server's record (XDG state) are the person's own."""
    base = tmp_path_factory.mktemp("xdg")
    for var in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(var, str(base / var.lower()))
    for var in list(os.environ):
        if var.startswith("KILN_"):
            monkeypatch.delenv(var)


@pytest.fixture(autouse=True, scope="session")
def _alone_on_the_server() -> Iterator[None]:
    """No `kiln eval` (or other live run) shares the server meanwhile: both would be wrong."""
    with one_measurement():
        yield


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not RESULTS:
        return
    terminalreporter.section("kiln with the local model")
    for result in RESULTS:
        terminalreporter.write_line(result.line())
    terminalreporter.write_line(summary(RESULTS))
