"""Shell wrappers that log how long a command took, for the other agents' command time.

The wrapper is bash with its own clock ($EPOCHREALTIME), so it adds about a millisecond
and no interpreter start to the agent it is measured in.
"""

from __future__ import annotations

import shlex
from pathlib import Path


def timed(command: str, log: Path) -> str:
    """`command`, appending "START END" (seconds) to `log` when it finishes."""
    body = (
        f's=$EPOCHREALTIME; {command}; r=$?; echo "$s $EPOCHREALTIME" >> {shlex.quote(str(log))}; '
        "exit $r"
    )
    return f"bash -c {shlex.quote(body)}"


def logged_seconds(log: Path) -> float:
    if not log.exists():
        return 0.0
    total = 0.0
    for line in log.read_text().splitlines():
        start, end = (float(x.replace(",", ".")) for x in line.split())
        total += end - start
    return total
