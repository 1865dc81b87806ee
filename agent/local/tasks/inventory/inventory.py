"""A tiny stock keeper."""


class Inventory:
    def __init__(self) -> None:
        self.items: dict[str, int] = {}

    def add(self, name: str, quantity: int) -> None:
        self.items[name] = quantity

    def remove(self, name: str, quantity: int) -> None:
        if self.items.get(name, 0) < quantity:
            raise ValueError(f"not enough {name}")
        self.items[name] -= quantity

    def count(self, name: str) -> int:
        return self.items.get(name, 0)
