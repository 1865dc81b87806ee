"""A student and the scores recorded for them."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field


@dataclass
class Student:
    student_id: str
    name: str
    scores: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))

    def record(self, category: str, points: float, out_of: float = 100.0) -> None:
        """Record a score, kept as a percentage."""
        if out_of <= 0:
            raise ValueError("out_of must be positive")
        if not 0 <= points <= out_of:
            raise ValueError(f"{points} is not between 0 and {out_of}")
        self.scores[category.lower()].append(100.0 * points / out_of)

    @property
    def surname(self) -> str:
        return self.name.split()[-1]
