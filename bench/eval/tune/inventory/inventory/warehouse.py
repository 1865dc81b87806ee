"""A warehouse: items by SKU, orders shipped from them, and the reorder list."""

from __future__ import annotations

import datetime as dt

from inventory.errors import OutOfStock, UnknownSku
from inventory.items import Picked, StockItem


class Warehouse:
    def __init__(self) -> None:
        self.items: dict[str, StockItem] = {}

    def add(self, item: StockItem) -> StockItem:
        self.items[item.sku] = item
        return item

    def __getitem__(self, sku: str) -> StockItem:
        try:
            return self.items[sku]
        except KeyError:
            raise UnknownSku(sku) from None

    def can_ship(self, order: dict[str, int], on: dt.date | None = None) -> bool:
        return all(self[sku].available(on) >= n for sku, n in order.items())

    def ship(self, order: dict[str, int], on: dt.date | None = None) -> dict[str, Picked]:
        """Pick a whole order, or nothing at all if any line is short."""
        for sku, quantity in order.items():
            available = self[sku].available(on)
            if quantity > available:
                raise OutOfStock(sku, quantity, available)
        return {sku: self[sku].pick(quantity, on) for sku, quantity in order.items()}

    def reorder_list(self, on: dt.date | None = None) -> list[str]:
        return sorted(sku for sku, item in self.items.items() if item.needs_reorder(on))
