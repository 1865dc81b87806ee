"""A latitude/longitude pair in degrees (WGS84), checked on the way in."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Point:
    lat: float
    lon: float

    def __post_init__(self) -> None:
        if not -90 <= self.lat <= 90:
            raise ValueError(f"latitude {self.lat} is outside -90..90")
        if not -180 <= self.lon <= 180:
            raise ValueError(f"longitude {self.lon} is outside -180..180")

    @classmethod
    def parse(cls, text: str) -> Point:
        """"51.5074, -0.1278" -> Point(51.5074, -0.1278)."""
        lat, lon = (float(part) for part in text.split(","))
        return cls(lat, lon)

    def __str__(self) -> str:
        ns = "N" if self.lat >= 0 else "S"
        ew = "E" if self.lon >= 0 else "W"
        return f"{abs(self.lat):.4f}°{ns} {abs(self.lon):.4f}°{ew}"
