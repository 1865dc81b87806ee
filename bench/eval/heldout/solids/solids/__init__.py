"""Regular polygons, prisms, pyramids and frustums, and a materials estimate built on them."""

from solids.estimate import concrete_m3, paint_m2
from solids.shapes import ShapeError, polygon

__all__ = ["ShapeError", "concrete_m3", "paint_m2", "polygon"]
