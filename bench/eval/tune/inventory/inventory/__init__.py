"""Warehouse stock: plain items, perishable goods in lots, and batches received over time."""

from inventory.errors import InventoryError, OutOfStock, UnknownSku
from inventory.items import BatchItem, PerishableItem, SimpleItem, StockItem
from inventory.lots import Lot
from inventory.warehouse import Warehouse

__all__ = [
    "BatchItem",
    "InventoryError",
    "Lot",
    "OutOfStock",
    "PerishableItem",
    "SimpleItem",
    "StockItem",
    "UnknownSku",
    "Warehouse",
]
