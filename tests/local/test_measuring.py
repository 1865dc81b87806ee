"""Must hold: a second measurement on the local server waits for the first, and says so."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from agent.local.measuring import WAITING, one_measurement

HOLD = """
import sys, time
from agent.local.measuring import one_measurement
with one_measurement():
    print("holding", flush=True)
    time.sleep(float(sys.argv[1]))
"""


def test_a_second_measurement_waits_for_the_first(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    first = subprocess.Popen([sys.executable, "-c", HOLD, "1.5"], stdout=subprocess.PIPE, text=True)
    assert first.stdout is not None and first.stdout.readline() == "holding\n"
    said: list[str] = []
    started = time.monotonic()
    with one_measurement(said.append):
        waited = time.monotonic() - started  # the first held the lock 1.5 s after saying so
    first.wait()
    assert said == [WAITING] and waited > 1.0
    said.clear()
    with one_measurement(said.append):  # free now: nobody waits, nothing is said
        pass
    assert said == []
