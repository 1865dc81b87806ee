"""Stock items. `StockItem` holds what every item shares; subclasses say where units come from.

- `SimpleItem`: a plain counter (screws, boxes).
- `BatchItem`: lots picked first in, first out (by the day they were received).
- `PerishableItem`: lots picked first expiring, first out; expired lots are never picked.
"""

from __future__ import annotations

import datetime as dt

from inventory.errors import OutOfStock
from inventory.lots import Lot

Picked = list[tuple[str, int]]  # (lot code, units taken from it)


class StockItem:
    def __init__(self, sku: str, name: str, reorder_point: int = 0):
        self.sku = sku
        self.name = name
        self.reorder_point = reorder_point

    def available(self, on: dt.date | None = None) -> int:
        raise NotImplementedError

    def needs_reorder(self, on: dt.date | None = None) -> bool:
        return self.available(on) <= self.reorder_point

    def pick(self, quantity: int, on: dt.date | None = None) -> Picked:
        """Take `quantity` units out of stock; say which lots they came from."""
        if quantity <= 0:
            raise ValueError(f"{self.sku}: cannot pick {quantity} units")
        available = self.available(on)
        if quantity > available:
            raise OutOfStock(self.sku, quantity, available)
        return self._pick(quantity, on)

    def _pick(self, quantity: int, on: dt.date | None) -> Picked:
        raise NotImplementedError

    @staticmethod
    def _draw_from_lots(lots: list[Lot], quantity: int) -> Picked:
        """Take `quantity` units from `lots`, emptying each in turn before the next."""
        picked: Picked = []
        remaining = quantity
        for lot in lots:
            if remaining == 0:
                break
            take = min(lot.quantity, quantity)
            if take == 0:
                continue
            lot.quantity -= take
            remaining -= take
            picked.append((lot.code, take))
        return picked

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.sku!r}, available={self.available()})"


class SimpleItem(StockItem):
    def __init__(self, sku: str, name: str, quantity: int = 0, reorder_point: int = 0):
        super().__init__(sku, name, reorder_point)
        self.quantity = quantity

    def receive(self, quantity: int) -> None:
        self.quantity += quantity

    def available(self, on: dt.date | None = None) -> int:
        return self.quantity

    def _pick(self, quantity: int, on: dt.date | None) -> Picked:
        self.quantity -= quantity
        return [("-", quantity)]


class BatchItem(StockItem):
    def __init__(self, sku: str, name: str, reorder_point: int = 0):
        super().__init__(sku, name, reorder_point)
        self.lots: list[Lot] = []

    def receive(self, lot: Lot) -> None:
        self.lots.append(lot)

    def available(self, on: dt.date | None = None) -> int:
        return sum(lot.quantity for lot in self.lots)

    def _pick(self, quantity: int, on: dt.date | None) -> Picked:
        ordered = sorted(self.lots, key=lambda lot: (lot.received, lot.code))
        return self._draw_from_lots(ordered, quantity)


class PerishableItem(BatchItem):
    def receive(self, lot: Lot) -> None:
        if lot.expires is None:
            raise ValueError(f"{self.sku}: a perishable lot needs an expiry date")
        super().receive(lot)

    def sellable_lots(self, on: dt.date) -> list[Lot]:
        fresh = [lot for lot in self.lots if not lot.is_expired(on)]
        return sorted(fresh, key=lambda lot: (lot.expires, lot.code))

    def available(self, on: dt.date | None = None) -> int:
        on = on or dt.date.today()
        return sum(lot.quantity for lot in self.sellable_lots(on))

    def _pick(self, quantity: int, on: dt.date | None) -> Picked:
        return self._draw_from_lots(self.sellable_lots(on or dt.date.today()), quantity)

    def write_off(self, on: dt.date) -> int:
        """Drop the expired lots; return how many units were thrown away."""
        expired = [lot for lot in self.lots if lot.is_expired(on)]
        self.lots = [lot for lot in self.lots if not lot.is_expired(on)]
        return sum(lot.quantity for lot in expired)
