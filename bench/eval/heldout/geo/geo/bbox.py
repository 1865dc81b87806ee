"""The smallest latitude/longitude box around some points (no date-line wrapping)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from geo.point import Point


@dataclass(frozen=True)
class BoundingBox:
    south: float
    west: float
    north: float
    east: float

    def contains(self, p: Point) -> bool:
        return self.south <= p.lat <= self.north and self.west <= p.lon <= self.east

    @property
    def centre(self) -> Point:
        return Point((self.south + self.north) / 2, (self.west + self.east) / 2)


def bounding_box(points: Iterable[Point]) -> BoundingBox:
    pts = list(points)
    if not pts:
        raise ValueError("a bounding box needs at least one point")
    return BoundingBox(
        south=min(p.lat for p in pts),
        west=min(p.lon for p in pts),
        north=max(p.lat for p in pts),
        east=max(p.lon for p in pts),
    )
