from __future__ import annotations

from dataclasses import dataclass
from datetime import date

STATUSES = ("todo", "doing", "done")


@dataclass(frozen=True)
class Task:
    id: int
    title: str
    status: str = "todo"
    due: date | None = None
    done_on: date | None = None
    tags: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown status {self.status!r}")
        if self.done_on and self.status != "done":
            raise ValueError("only finished tasks have a done_on date")
