"""The to-do list lives in one JSON file: a list of items with increasing ids."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import date
from pathlib import Path


@dataclass
class Item:
    id: int
    title: str
    done: bool = False
    due: date | None = None

    def to_json(self) -> dict:
        data = asdict(self)
        data["due"] = self.due.isoformat() if self.due else None
        return data

    @classmethod
    def from_json(cls, data: dict) -> Item:
        due = date.fromisoformat(data["due"]) if data.get("due") else None
        return cls(data["id"], data["title"], data.get("done", False), due)


def load(path: Path) -> list[Item]:
    if not path.exists():
        return []
    return [Item.from_json(d) for d in json.loads(path.read_text(encoding="utf-8"))]


def save(path: Path, items: list[Item]) -> None:
    path.write_text(json.dumps([i.to_json() for i in items], indent=2) + "\n", encoding="utf-8")


def add(items: list[Item], title: str, due: date | None = None) -> Item:
    item = Item(max((i.id for i in items), default=0) + 1, title, due=due)
    items.append(item)
    return item
