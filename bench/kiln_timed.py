"""`kiln` exactly as the console script runs it, with its sandbox's calls timed.

Run: python bench/kiln_timed.py TIMING_JSON kiln-arguments...
Every sandbox the run creates is wrapped in bench.timed_sandbox.TimedSandbox; at exit the
union of the time spent inside sandbox calls (and the total per call) goes to TIMING_JSON,
so the benchmark can subtract it from this very process's start-to-exit time.
"""

from __future__ import annotations

import atexit
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sandbox.factory
from agent import cli
from bench.timed_sandbox import TimedSandbox

timing_path, argv = sys.argv[1], sys.argv[2:]
made: list[TimedSandbox] = []
_create = sandbox.factory.create_sandbox


def create_timed(*args: Any, **kwargs: Any) -> Any:
    timed = TimedSandbox(_create(*args, **kwargs))
    made.append(timed)
    return timed


def write_timing() -> None:
    report = {
        "sandbox_s": sum(t.busy_s() for t in made),
        "by_call": {k: sum(t.by_call.get(k, 0.0) for t in made) for t in made for k in t.by_call},
    }
    Path(timing_path).write_text(json.dumps(report))


sandbox.factory.create_sandbox = create_timed  # type: ignore[assignment]
atexit.register(write_timing)
sys.exit(cli.main(argv))
