"""Great-circle distance (haversine) and the initial bearing between two points."""

from __future__ import annotations

import math

from geo.point import Point

EARTH_RADIUS_KM = 6371.0088  # the mean radius (IUGG)


def distance_km(a: Point, b: Point) -> float:
    phi1, phi2 = math.radians(a.lat), math.radians(b.lat)
    dphi = math.radians(b.lat - a.lat)
    dlambda = math.radians(b.lat - a.lon)
    h = math.sin(dphi / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(dlambda / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(h))


def bearing_deg(a: Point, b: Point) -> float:
    """The compass bearing to set off on from `a` towards `b`, 0..360."""
    phi1, phi2 = math.radians(a.lat), math.radians(b.lat)
    dlambda = math.radians(b.lon - a.lon)
    y = math.sin(dlambda) * math.cos(phi2)
    x = math.cos(phi1) * math.sin(phi2) - math.sin(phi1) * math.cos(phi2) * math.cos(dlambda)
    return (math.degrees(math.atan2(y, x)) + 360) % 360
