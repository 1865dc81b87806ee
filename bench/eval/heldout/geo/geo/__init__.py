"""Points on the Earth: distances, bearings and bounding boxes."""

from geo.bbox import BoundingBox, bounding_box
from geo.distance import EARTH_RADIUS_KM, bearing_deg, distance_km
from geo.point import Point

__all__ = ["BoundingBox", "EARTH_RADIUS_KM", "Point", "bearing_deg", "bounding_box", "distance_km"]
