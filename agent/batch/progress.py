"""What a person watching `kiln batch` sees on stderr while it runs.

On a terminal: one status line redrawn in place (done, running, failed, cost so far, ETA)
with a line above it for each finished task. Elsewhere (a log, CI): only those lines.
`--output-format json` also writes each recorded result to stdout as a JSON line.
"""

from __future__ import annotations

import json
import time
from typing import Any, TextIO

from agent.present import cost_text, escape_controls, human_duration

MARKS = {"solved": "✓", "failed": "✗", "error": "!"}


class Progress:
    def __init__(self, err: TextIO, out: TextIO, *, json_lines: bool, budget_usd: float) -> None:
        self.err = err
        self.out = out
        self.json_lines = json_lines
        self.budget_usd = budget_usd
        self.live = err.isatty()
        self.total = 0
        self.done = 0  # finished, this run and earlier ones
        self.failed = 0
        self.running = 0
        self.finished_now = 0
        self.spent = 0.0
        self.started_at = time.monotonic()

    def begin(self, total: int, skipped: int, spent: float) -> None:
        self.total, self.done, self.spent = total, skipped, spent
        self.started_at = time.monotonic()
        if skipped:
            self._line(f"{skipped} of {total} tasks finished in an earlier run: skipped")
        self.redraw()

    def started(self, task_id: str, spent: float) -> None:
        del task_id
        self.running += 1
        self.spent = spent
        self.redraw()

    def cost(self, spent: float) -> None:
        self.spent = spent
        self.redraw()

    def finished(self, record: dict[str, Any], spent: float) -> None:
        self.running -= 1
        self.done += 1
        self.finished_now += 1
        self.failed += record["status"] != "solved"
        self.spent = spent
        mark = MARKS.get(record["status"], "?")
        cost = cost_text(record.get("cost_usd"), 0.0)
        self._line(
            f"[{self.done}/{self.total}] {mark} {record['id']}: {record['status']} "
            f"({record['stop_reason']}) {record['duration_s']:.1f}s {cost}"
            + (f" attempt {record['attempt']}" if record["attempt"] > 1 else "")
            + (f": {record['summary']}" if record["status"] == "error" else "")
        )
        if self.json_lines:
            self.out.write(json.dumps({"type": "result", **record}) + "\n")
            self.out.flush()

    def retrying(self, task_id: str, attempt: int, attempts: int, record: dict[str, Any]) -> None:
        self.running -= 1
        self._line(f"retrying {task_id} (attempt {attempt} of {attempts}): {record['summary']}")

    def cancelled(self, task_id: str) -> None:
        self.running -= 1
        self._line(f"{task_id}: not finished (the next run starts it again)")

    def say(self, text: str) -> None:
        self._line(text)

    def status(self) -> str:
        remaining = self.total - self.done
        elapsed = time.monotonic() - self.started_at
        eta = (
            human_duration(elapsed / self.finished_now * remaining)
            if self.finished_now and remaining
            else "?"
        )
        return (
            f"kiln batch: {self.done}/{self.total} done · {self.running} running · "
            f"{self.failed} failed · {cost_text(self.spent, self.budget_usd)} · "
            f"ETA {eta if remaining else '0:00'}"
        )

    def redraw(self) -> None:
        if self.live:
            self.err.write("\r\033[K" + self.status())
            self.err.flush()

    def end(self) -> None:
        if self.live:
            self.err.write("\r\033[K")
            self.err.flush()

    def _line(self, text: str) -> None:
        # A task's id and summary come from the TASKS file and the model: escaped, so only
        # kiln's own "\r\033[K" redraws the status line.
        self.err.write(("\r\033[K" if self.live else "") + escape_controls(text) + "\n")
        self.redraw()
