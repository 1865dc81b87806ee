"""Writing a project's tasks to CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from datetime import date

from tracker.model import Task

COLUMNS = ("id", "title", "status", "due", "done_on", "tags")
DATE_FORMAT = "%d/%m/%Y"


def _date(value: date | None) -> str:
    return value.strftime(DATE_FORMAT) if value else ""


def export_tasks(tasks: Iterable[Task]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for task in sorted(tasks, key=lambda t: t.id):
        writer.writerow([task.id, task.title, task.status, _date(task.due), _date(task.done_on), ";".join(task.tags)])
    return out.getvalue()
