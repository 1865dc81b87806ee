"""The rate card and the quote for one parcel.

A parcel is billed on the greater of its actual and its volumetric weight, rounded up
to the next half kilogram, at its zone's base price plus a price per billable kilogram.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shipping.parcel import Parcel
from shipping.zones import DOMESTIC, EUROPE, WORLD_1, WORLD_2, zone_for

# zone -> (base price, price per billable kg), in pence
RATE_CARD: dict[str, tuple[int, int]] = {
    DOMESTIC: (350, 90),
    EUROPE: (900, 240),
    WORLD_1: (1400, 410),
    WORLD_2: (1600, 520),
}
OVERSIZE_GIRTH_CM = 300.0
OVERSIZE_SURCHARGE = 1200


@dataclass(frozen=True)
class Quote:
    zone: str
    billable_kg: float
    pence: int

    @property
    def pounds(self) -> str:
        return f"£{self.pence / 100:.2f}"


def billable_weight(parcel: Parcel) -> float:
    weight = min(parcel.weight_kg, parcel.volumetric_kg)
    return math.ceil(weight * 2) / 2


def quote(parcel: Parcel, country: str) -> Quote:
    zone = zone_for(country)
    base, per_kg = RATE_CARD[zone]
    kg = billable_weight(parcel)
    pence = base + round(per_kg * kg)
    if parcel.girth_cm > OVERSIZE_GIRTH_CM:
        pence += OVERSIZE_SURCHARGE
    return Quote(zone=zone, billable_kg=kg, pence=pence)


def cheapest_zone_price(parcel: Parcel) -> int:
    """What the parcel would cost at the cheapest zone: the floor a shop can advertise."""
    return min(quote_in_zone(parcel, zone) for zone in RATE_CARD)


def quote_in_zone(parcel: Parcel, zone: str) -> int:
    base, per_kg = RATE_CARD[zone]
    return base + round(per_kg * billable_weight(parcel))
