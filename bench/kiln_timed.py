"""`kiln` exactly as the console script runs it, with its sandbox's calls timed.

Run: python bench/kiln_timed.py TIMING_JSON kiln-arguments...
Every sandbox the run creates is wrapped in bench.timed_sandbox.TimedSandbox; when the
last one closes, the union of the time spent inside sandbox calls (and the total per
call) goes to TIMING_JSON, so the benchmark can subtract it from this very process's
start-to-exit time. `kiln` is then entered as the console script enters it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sandbox.factory
from agent import cli
from bench.timed_sandbox import TimedSandbox

timing_path = sys.argv[1]
made: list[TimedSandbox] = []
_create = sandbox.factory.create_sandbox


def write_timing() -> None:
    by_call: dict[str, float] = {}
    for timed in made:
        for name, seconds in timed.by_call.items():
            by_call[name] = by_call.get(name, 0.0) + seconds
    report = {"sandbox_s": sum(t.busy_s() for t in made), "by_call": by_call}
    Path(timing_path).write_text(json.dumps(report))


class ReportingSandbox(TimedSandbox):
    async def close(self) -> None:
        await super().close()
        write_timing()  # the process may end right after, without running atexit


def create_timed(*args: Any, **kwargs: Any) -> Any:
    timed = ReportingSandbox(_create(*args, **kwargs))
    made.append(timed)
    return timed


sandbox.factory.create_sandbox = create_timed  # type: ignore[assignment]
sys.argv = ["kiln", *sys.argv[2:]]
sys.exit(cli.main())
