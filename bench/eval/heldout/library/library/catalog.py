"""What the library holds: items, their kind, and how long each kind may be borrowed."""

from __future__ import annotations

from dataclasses import dataclass

LOAN_DAYS = {"book": 21, "dvd": 7, "magazine": 7, "reference": 0}
DAILY_FINE_PENCE = {"book": 20, "dvd": 100, "magazine": 10, "reference": 0}
MAX_FINE_PENCE = 800


@dataclass(frozen=True)
class Item:
    barcode: str
    title: str
    kind: str

    @property
    def lendable(self) -> bool:
        return LOAN_DAYS.get(self.kind, 0) > 0


class Catalog:
    def __init__(self) -> None:
        self._items: dict[str, Item] = {}

    def add(self, item: Item) -> None:
        if item.kind not in LOAN_DAYS:
            raise ValueError(f"unknown kind {item.kind!r}")
        self._items[item.barcode] = item

    def get(self, barcode: str) -> Item:
        try:
            return self._items[barcode]
        except KeyError:
            raise LookupError(f"no item {barcode}") from None

    def search(self, words: str) -> list[Item]:
        wanted = words.lower().split()
        return [i for i in self._items.values() if all(w in i.title.lower() for w in wanted)]
