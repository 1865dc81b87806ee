"""A lot: units of one item that arrived together (and, for food, expire together)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass


@dataclass
class Lot:
    code: str
    quantity: int
    received: dt.date
    expires: dt.date | None = None

    def is_expired(self, on: dt.date) -> bool:
        """A lot can still be sold on its expiry day, not after."""
        return self.expires is not None and on > self.expires

    def __post_init__(self) -> None:
        if self.quantity < 0:
            raise ValueError(f"lot {self.code}: negative quantity {self.quantity}")
