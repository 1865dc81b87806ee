"""What is being bought: items with a unit price in pence, and multi-buy offers."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Offer:
    """Buy `quantity` for `price_pence` ("3 for 2" is quantity 3 at twice the unit price)."""

    quantity: int
    price_pence: int


@dataclass
class Basket:
    prices: dict[str, int]
    offers: dict[str, Offer] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

    def scan(self, item: str, times: int = 1) -> None:
        if item not in self.prices:
            raise KeyError(f"no price for {item}")
        self.counts[item] = self.counts.get(item, 0) + times

    def line_total(self, item: str) -> int:
        count, price = self.counts[item], self.prices[item]
        offer = self.offers.get(item)
        if offer is None:
            return count * price
        bundles, rest = divmod(count, offer.quantity)
        return bundles * offer.price_pence + rest * price

    def saving(self, item: str) -> int:
        return self.counts[item] * self.prices[item] - self.line_total(item)

    def total(self) -> int:
        return sum(self.line_total(item) for item in self.counts)
