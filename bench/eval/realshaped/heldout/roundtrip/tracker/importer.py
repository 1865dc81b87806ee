"""Reading tasks back from a CSV export (ours, or one somebody edited by hand)."""

from __future__ import annotations

import csv
import io
from datetime import date

from tracker.model import Task


class ImportProblem(ValueError):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


def _date(text: str, line: int, column: str) -> date | None:
    text = text.strip()
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ImportProblem(line, f"bad {column} date {text!r}") from None


def import_tasks(text: str) -> list[Task]:
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    missing = {"id", "title"} - set(reader.fieldnames or ())
    if missing:
        raise ImportProblem(1, f"missing column(s): {', '.join(sorted(missing))}")
    tasks = []
    seen: set[int] = set()
    for row in reader:
        line = reader.line_num
        if not (row.get("id") or "").strip():
            continue
        try:
            task_id = int(row["id"])
        except ValueError:
            raise ImportProblem(line, f"bad id {row['id']!r}") from None
        if task_id in seen:
            raise ImportProblem(line, f"duplicate id {task_id}")
        seen.add(task_id)
        tags = tuple(t.strip() for t in (row.get("tags") or "").split(";") if t.strip())
        try:
            tasks.append(Task(
                task_id,
                row["title"].strip(),
                (row.get("status") or "todo").strip().lower(),
                _date(row.get("due") or "", line, "due"),
                _date(row.get("done_on") or "", line, "done_on"),
                tags,
            ))
        except ValueError as exc:
            if isinstance(exc, ImportProblem):
                raise
            raise ImportProblem(line, str(exc)) from None
    return tasks
