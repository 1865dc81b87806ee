"""A parcel as the carrier measures it."""

from __future__ import annotations

from dataclasses import dataclass

# Carriers bill bulky parcels by volume: cubic centimetres per "volumetric" kilogram.
VOLUMETRIC_DIVISOR = 5000
MAX_WEIGHT_KG = 30.0
MAX_SIDE_CM = 150.0


class ParcelError(ValueError):
    """A parcel the carrier will not take."""


@dataclass(frozen=True)
class Parcel:
    weight_kg: float
    length_cm: float
    width_cm: float
    height_cm: float

    def __post_init__(self) -> None:
        if self.weight_kg <= 0:
            raise ParcelError("a parcel must weigh something")
        if self.weight_kg > MAX_WEIGHT_KG:
            raise ParcelError(f"parcels over {MAX_WEIGHT_KG:g} kg go by freight")
        for side in (self.length_cm, self.width_cm, self.height_cm):
            if side <= 0:
                raise ParcelError("every side must be longer than zero")
            if side > MAX_SIDE_CM:
                raise ParcelError(f"no side may exceed {MAX_SIDE_CM:g} cm")

    @property
    def volume_cm3(self) -> float:
        return self.length_cm * self.width_cm * self.height_cm

    @property
    def volumetric_kg(self) -> float:
        return round(self.volume_cm3 / VOLUMETRIC_DIVISOR, 2)

    @property
    def girth_cm(self) -> float:
        """Length plus the distance around the two shorter sides."""
        longest, *others = sorted((self.length_cm, self.width_cm, self.height_cm), reverse=True)
        return longest + 2 * sum(others)
