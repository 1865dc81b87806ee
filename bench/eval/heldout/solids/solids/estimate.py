"""What a builder asks of a shape: concrete to pour, paint for the sides."""

from __future__ import annotations

from solids.shapes import PRISMS, ShapeError

WASTE = 1.05  # order 5% more than the drawing says


def concrete_m3(sides: int, side_m: float, height_m: float) -> float:
    """Concrete for a solid plinth: a prism on a regular polygon, with waste, to 0.01 m3."""
    try:
        prism = PRISMS[sides](side_m, height_m)
    except KeyError:
        raise ShapeError(f"no prism with {sides} sides") from None
    return round(prism.volume() * WASTE, 2)


def paint_m2(sides: int, side_m: float, height_m: float, coats: int = 2) -> float:
    """Paint for the sides and top (the bottom sits on the ground)."""
    prism = PRISMS[sides](side_m, height_m)
    return round((prism.lateral_area() + prism.base.area()) * coats, 2)
