"""What can go wrong when moving stock."""


class InventoryError(Exception):
    """Base of every inventory error."""


class OutOfStock(InventoryError):
    def __init__(self, sku: str, wanted: int, available: int):
        super().__init__(f"{sku}: {wanted} wanted, {available} available")
        self.sku = sku
        self.wanted = wanted
        self.available = available


class UnknownSku(InventoryError, KeyError):
    pass
