"""Regular polygons and the prisms and pyramids built on them.

One class per named shape, so a drawing program can offer "Hexagon" and a quantity
surveyor "HexagonalPrism" with the formulas spelled out where they are used. Lengths
are in any one unit; areas and volumes come out in its square and cube.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


class ShapeError(ValueError):
    """A shape with a side, height or count that cannot exist."""


def _positive(name: str, value: float) -> float:
    if not value > 0:
        raise ShapeError(f"{name} must be greater than zero, not {value!r}")
    return float(value)



@dataclass(frozen=True)
class Triangle:
    """A regular polygon with 3 equal sides of length `side`."""

    side: float
    sides = 3

    def __post_init__(self) -> None:
        _positive("side", self.side)

    @classmethod
    def from_perimeter(cls, perimeter: float) -> Triangle:
        return cls(_positive("perimeter", perimeter) / 3)

    @classmethod
    def from_circumradius(cls, radius: float) -> Triangle:
        """The triangle inscribed in a circle of that radius."""
        return cls(2 * _positive("radius", radius) * math.sin(math.pi / 3))

    @classmethod
    def from_area(cls, area: float) -> Triangle:
        return cls(math.sqrt(4 * _positive("area", area) * math.tan(math.pi / 3) / 3))

    def perimeter(self) -> float:
        return 3 * self.side

    def apothem(self) -> float:
        """Centre to the middle of a side: the radius of the inscribed circle."""
        return self.side / (2 * math.tan(math.pi / 3))

    def circumradius(self) -> float:
        """Centre to a corner: the radius of the circumscribed circle."""
        return self.side / (2 * math.sin(math.pi / 3))

    def area(self) -> float:
        return self.perimeter() * self.apothem() / 2

    def interior_angle(self) -> float:
        """Degrees inside each corner."""
        return (3 - 2) * 180 / 3

    def exterior_angle(self) -> float:
        return 360 / 3

    def diagonals(self) -> int:
        return 3 * (3 - 3) // 2

    def scaled(self, factor: float) -> Triangle:
        return Triangle(self.side * _positive("factor", factor))

    def vertices(self, cx: float = 0.0, cy: float = 0.0) -> list[tuple[float, float]]:
        """Corner points, counter-clockwise, the first straight above the centre."""
        r = self.circumradius()
        return [
            (cx + r * math.sin(2 * math.pi * k / 3), cy + r * math.cos(2 * math.pi * k / 3))
            for k in range(3)
        ]

    def bounding_box(self) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of the corners, centred on the origin."""
        xs, ys = zip(*self.vertices())
        return min(xs), min(ys), max(xs), max(ys)

    def contains(self, x: float, y: float) -> bool:
        """Whether the point lies inside (or on) the polygon centred on the origin."""
        corners = self.vertices()
        for k in range(3):
            (x1, y1), (x2, y2) = corners[k], corners[(k + 1) % 3]
            # Counter-clockwise corners: inside is to the left of every edge.
            if (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) > 1e-9:
                return False
        return True

    def width_across_flats(self) -> float:
        """Side to opposite side for an even count; side to opposite corner otherwise."""
        if 3 % 2 == 0:
            return 2 * self.apothem()
        return self.apothem() + self.circumradius()

    def incircle_area(self) -> float:
        return math.pi * self.apothem() ** 2

    def fill_ratio(self) -> float:
        """How much of its circumscribed circle the polygon covers."""
        return self.area() / (math.pi * self.circumradius() ** 2)

    def __str__(self) -> str:
        return f"triangle with side {self.side:g}"


@dataclass(frozen=True)
class Square:
    """A regular polygon with 4 equal sides of length `side`."""

    side: float
    sides = 4

    def __post_init__(self) -> None:
        _positive("side", self.side)

    @classmethod
    def from_perimeter(cls, perimeter: float) -> Square:
        return cls(_positive("perimeter", perimeter) / 4)

    @classmethod
    def from_circumradius(cls, radius: float) -> Square:
        """The square inscribed in a circle of that radius."""
        return cls(2 * _positive("radius", radius) * math.sin(math.pi / 4))

    @classmethod
    def from_area(cls, area: float) -> Square:
        return cls(math.sqrt(4 * _positive("area", area) * math.tan(math.pi / 4) / 4))

    def perimeter(self) -> float:
        return 4 * self.side

    def apothem(self) -> float:
        """Centre to the middle of a side: the radius of the inscribed circle."""
        return self.side / (2 * math.tan(math.pi / 4))

    def circumradius(self) -> float:
        """Centre to a corner: the radius of the circumscribed circle."""
        return self.side / (2 * math.sin(math.pi / 4))

    def area(self) -> float:
        return self.perimeter() * self.apothem() / 2

    def interior_angle(self) -> float:
        """Degrees inside each corner."""
        return (4 - 2) * 180 / 4

    def exterior_angle(self) -> float:
        return 360 / 4

    def diagonals(self) -> int:
        return 4 * (4 - 3) // 2

    def scaled(self, factor: float) -> Square:
        return Square(self.side * _positive("factor", factor))

    def vertices(self, cx: float = 0.0, cy: float = 0.0) -> list[tuple[float, float]]:
        """Corner points, counter-clockwise, the first straight above the centre."""
        r = self.circumradius()
        return [
            (cx + r * math.sin(2 * math.pi * k / 4), cy + r * math.cos(2 * math.pi * k / 4))
            for k in range(4)
        ]

    def bounding_box(self) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of the corners, centred on the origin."""
        xs, ys = zip(*self.vertices())
        return min(xs), min(ys), max(xs), max(ys)

    def contains(self, x: float, y: float) -> bool:
        """Whether the point lies inside (or on) the polygon centred on the origin."""
        corners = self.vertices()
        for k in range(4):
            (x1, y1), (x2, y2) = corners[k], corners[(k + 1) % 4]
            # Counter-clockwise corners: inside is to the left of every edge.
            if (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) > 1e-9:
                return False
        return True

    def width_across_flats(self) -> float:
        """Side to opposite side for an even count; side to opposite corner otherwise."""
        if 4 % 2 == 0:
            return 2 * self.apothem()
        return self.apothem() + self.circumradius()

    def incircle_area(self) -> float:
        return math.pi * self.apothem() ** 2

    def fill_ratio(self) -> float:
        """How much of its circumscribed circle the polygon covers."""
        return self.area() / (math.pi * self.circumradius() ** 2)

    def __str__(self) -> str:
        return f"square with side {self.side:g}"


@dataclass(frozen=True)
class Pentagon:
    """A regular polygon with 5 equal sides of length `side`."""

    side: float
    sides = 5

    def __post_init__(self) -> None:
        _positive("side", self.side)

    @classmethod
    def from_perimeter(cls, perimeter: float) -> Pentagon:
        return cls(_positive("perimeter", perimeter) / 5)

    @classmethod
    def from_circumradius(cls, radius: float) -> Pentagon:
        """The pentagon inscribed in a circle of that radius."""
        return cls(2 * _positive("radius", radius) * math.sin(math.pi / 5))

    @classmethod
    def from_area(cls, area: float) -> Pentagon:
        return cls(math.sqrt(4 * _positive("area", area) * math.tan(math.pi / 5) / 5))

    def perimeter(self) -> float:
        return 5 * self.side

    def apothem(self) -> float:
        """Centre to the middle of a side: the radius of the inscribed circle."""
        return self.side / (2 * math.tan(math.pi / 5))

    def circumradius(self) -> float:
        """Centre to a corner: the radius of the circumscribed circle."""
        return self.side / (2 * math.sin(math.pi / 5))

    def area(self) -> float:
        return self.perimeter() * self.apothem() / 2

    def interior_angle(self) -> float:
        """Degrees inside each corner."""
        return (5 - 2) * 180 / 5

    def exterior_angle(self) -> float:
        return 360 / 5

    def diagonals(self) -> int:
        return 5 * (5 - 3) // 2

    def scaled(self, factor: float) -> Pentagon:
        return Pentagon(self.side * _positive("factor", factor))

    def vertices(self, cx: float = 0.0, cy: float = 0.0) -> list[tuple[float, float]]:
        """Corner points, counter-clockwise, the first straight above the centre."""
        r = self.circumradius()
        return [
            (cx + r * math.sin(2 * math.pi * k / 5), cy + r * math.cos(2 * math.pi * k / 5))
            for k in range(5)
        ]

    def bounding_box(self) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of the corners, centred on the origin."""
        xs, ys = zip(*self.vertices())
        return min(xs), min(ys), max(xs), max(ys)

    def contains(self, x: float, y: float) -> bool:
        """Whether the point lies inside (or on) the polygon centred on the origin."""
        corners = self.vertices()
        for k in range(5):
            (x1, y1), (x2, y2) = corners[k], corners[(k + 1) % 5]
            # Counter-clockwise corners: inside is to the left of every edge.
            if (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) > 1e-9:
                return False
        return True

    def width_across_flats(self) -> float:
        """Side to opposite side for an even count; side to opposite corner otherwise."""
        if 5 % 2 == 0:
            return 2 * self.apothem()
        return self.apothem() + self.circumradius()

    def incircle_area(self) -> float:
        return math.pi * self.apothem() ** 2

    def fill_ratio(self) -> float:
        """How much of its circumscribed circle the polygon covers."""
        return self.area() / (math.pi * self.circumradius() ** 2)

    def __str__(self) -> str:
        return f"pentagon with side {self.side:g}"


@dataclass(frozen=True)
class Hexagon:
    """A regular polygon with 6 equal sides of length `side`."""

    side: float
    sides = 6

    def __post_init__(self) -> None:
        _positive("side", self.side)

    @classmethod
    def from_perimeter(cls, perimeter: float) -> Hexagon:
        return cls(_positive("perimeter", perimeter) / 6)

    @classmethod
    def from_circumradius(cls, radius: float) -> Hexagon:
        """The hexagon inscribed in a circle of that radius."""
        return cls(2 * _positive("radius", radius) * math.sin(math.pi / 6))

    @classmethod
    def from_area(cls, area: float) -> Hexagon:
        return cls(math.sqrt(4 * _positive("area", area) * math.tan(math.pi / 6) / 6))

    def perimeter(self) -> float:
        return 6 * self.side

    def apothem(self) -> float:
        """Centre to the middle of a side: the radius of the inscribed circle."""
        return self.side / (2 * math.tan(math.pi / 6))

    def circumradius(self) -> float:
        """Centre to a corner: the radius of the circumscribed circle."""
        return self.side / (2 * math.sin(math.pi / 6))

    def area(self) -> float:
        return self.perimeter() * self.apothem() / 2

    def interior_angle(self) -> float:
        """Degrees inside each corner."""
        return (6 - 2) * 180 / 6

    def exterior_angle(self) -> float:
        return 360 / 6

    def diagonals(self) -> int:
        return 6 * (6 - 3) // 2

    def scaled(self, factor: float) -> Hexagon:
        return Hexagon(self.side * _positive("factor", factor))

    def vertices(self, cx: float = 0.0, cy: float = 0.0) -> list[tuple[float, float]]:
        """Corner points, counter-clockwise, the first straight above the centre."""
        r = self.circumradius()
        return [
            (cx + r * math.sin(2 * math.pi * k / 6), cy + r * math.cos(2 * math.pi * k / 6))
            for k in range(6)
        ]

    def bounding_box(self) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of the corners, centred on the origin."""
        xs, ys = zip(*self.vertices())
        return min(xs), min(ys), max(xs), max(ys)

    def contains(self, x: float, y: float) -> bool:
        """Whether the point lies inside (or on) the polygon centred on the origin."""
        corners = self.vertices()
        for k in range(6):
            (x1, y1), (x2, y2) = corners[k], corners[(k + 1) % 6]
            # Counter-clockwise corners: inside is to the left of every edge.
            if (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) > 1e-9:
                return False
        return True

    def width_across_flats(self) -> float:
        """Side to opposite side for an even count; side to opposite corner otherwise."""
        if 6 % 2 == 0:
            return 2 * self.apothem()
        return self.apothem() + self.circumradius()

    def incircle_area(self) -> float:
        return math.pi * self.apothem() ** 2

    def fill_ratio(self) -> float:
        """How much of its circumscribed circle the polygon covers."""
        return self.area() / (math.pi * self.circumradius() ** 2)

    def __str__(self) -> str:
        return f"hexagon with side {self.side:g}"


@dataclass(frozen=True)
class Heptagon:
    """A regular polygon with 7 equal sides of length `side`."""

    side: float
    sides = 7

    def __post_init__(self) -> None:
        _positive("side", self.side)

    @classmethod
    def from_perimeter(cls, perimeter: float) -> Heptagon:
        return cls(_positive("perimeter", perimeter) / 7)

    @classmethod
    def from_circumradius(cls, radius: float) -> Heptagon:
        """The heptagon inscribed in a circle of that radius."""
        return cls(2 * _positive("radius", radius) * math.sin(math.pi / 7))

    @classmethod
    def from_area(cls, area: float) -> Heptagon:
        return cls(math.sqrt(4 * _positive("area", area) * math.tan(math.pi / 7) / 7))

    def perimeter(self) -> float:
        return 7 * self.side

    def apothem(self) -> float:
        """Centre to the middle of a side: the radius of the inscribed circle."""
        return self.side / (2 * math.tan(math.pi / 7))

    def circumradius(self) -> float:
        """Centre to a corner: the radius of the circumscribed circle."""
        return self.side / (2 * math.sin(math.pi / 7))

    def area(self) -> float:
        return self.perimeter() * self.apothem() / 2

    def interior_angle(self) -> float:
        """Degrees inside each corner."""
        return (7 - 2) * 180 / 7

    def exterior_angle(self) -> float:
        return 360 / 7

    def diagonals(self) -> int:
        return 7 * (7 - 3) // 2

    def scaled(self, factor: float) -> Heptagon:
        return Heptagon(self.side * _positive("factor", factor))

    def vertices(self, cx: float = 0.0, cy: float = 0.0) -> list[tuple[float, float]]:
        """Corner points, counter-clockwise, the first straight above the centre."""
        r = self.circumradius()
        return [
            (cx + r * math.sin(2 * math.pi * k / 7), cy + r * math.cos(2 * math.pi * k / 7))
            for k in range(7)
        ]

    def bounding_box(self) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of the corners, centred on the origin."""
        xs, ys = zip(*self.vertices())
        return min(xs), min(ys), max(xs), max(ys)

    def contains(self, x: float, y: float) -> bool:
        """Whether the point lies inside (or on) the polygon centred on the origin."""
        corners = self.vertices()
        for k in range(7):
            (x1, y1), (x2, y2) = corners[k], corners[(k + 1) % 7]
            # Counter-clockwise corners: inside is to the left of every edge.
            if (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) > 1e-9:
                return False
        return True

    def width_across_flats(self) -> float:
        """Side to opposite side for an even count; side to opposite corner otherwise."""
        if 7 % 2 == 0:
            return 2 * self.apothem()
        return self.apothem() + self.circumradius()

    def incircle_area(self) -> float:
        return math.pi * self.apothem() ** 2

    def fill_ratio(self) -> float:
        """How much of its circumscribed circle the polygon covers."""
        return self.area() / (math.pi * self.circumradius() ** 2)

    def __str__(self) -> str:
        return f"heptagon with side {self.side:g}"


@dataclass(frozen=True)
class Octagon:
    """A regular polygon with 8 equal sides of length `side`."""

    side: float
    sides = 8

    def __post_init__(self) -> None:
        _positive("side", self.side)

    @classmethod
    def from_perimeter(cls, perimeter: float) -> Octagon:
        return cls(_positive("perimeter", perimeter) / 8)

    @classmethod
    def from_circumradius(cls, radius: float) -> Octagon:
        """The octagon inscribed in a circle of that radius."""
        return cls(2 * _positive("radius", radius) * math.sin(math.pi / 8))

    @classmethod
    def from_area(cls, area: float) -> Octagon:
        return cls(math.sqrt(4 * _positive("area", area) * math.tan(math.pi / 8) / 8))

    def perimeter(self) -> float:
        return 8 * self.side

    def apothem(self) -> float:
        """Centre to the middle of a side: the radius of the inscribed circle."""
        return self.side / (2 * math.tan(math.pi / 8))

    def circumradius(self) -> float:
        """Centre to a corner: the radius of the circumscribed circle."""
        return self.side / (2 * math.sin(math.pi / 8))

    def area(self) -> float:
        return self.perimeter() * self.apothem() / 2

    def interior_angle(self) -> float:
        """Degrees inside each corner."""
        return (8 - 2) * 180 / 8

    def exterior_angle(self) -> float:
        return 360 / 8

    def diagonals(self) -> int:
        return 8 * (8 - 3) // 2

    def scaled(self, factor: float) -> Octagon:
        return Octagon(self.side * _positive("factor", factor))

    def vertices(self, cx: float = 0.0, cy: float = 0.0) -> list[tuple[float, float]]:
        """Corner points, counter-clockwise, the first straight above the centre."""
        r = self.circumradius()
        return [
            (cx + r * math.sin(2 * math.pi * k / 8), cy + r * math.cos(2 * math.pi * k / 8))
            for k in range(8)
        ]

    def bounding_box(self) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of the corners, centred on the origin."""
        xs, ys = zip(*self.vertices())
        return min(xs), min(ys), max(xs), max(ys)

    def contains(self, x: float, y: float) -> bool:
        """Whether the point lies inside (or on) the polygon centred on the origin."""
        corners = self.vertices()
        for k in range(8):
            (x1, y1), (x2, y2) = corners[k], corners[(k + 1) % 8]
            # Counter-clockwise corners: inside is to the left of every edge.
            if (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) > 1e-9:
                return False
        return True

    def width_across_flats(self) -> float:
        """Side to opposite side for an even count; side to opposite corner otherwise."""
        if 8 % 2 == 0:
            return 2 * self.apothem()
        return self.apothem() + self.circumradius()

    def incircle_area(self) -> float:
        return math.pi * self.apothem() ** 2

    def fill_ratio(self) -> float:
        """How much of its circumscribed circle the polygon covers."""
        return self.area() / (math.pi * self.circumradius() ** 2)

    def __str__(self) -> str:
        return f"octagon with side {self.side:g}"


@dataclass(frozen=True)
class Nonagon:
    """A regular polygon with 9 equal sides of length `side`."""

    side: float
    sides = 9

    def __post_init__(self) -> None:
        _positive("side", self.side)

    @classmethod
    def from_perimeter(cls, perimeter: float) -> Nonagon:
        return cls(_positive("perimeter", perimeter) / 9)

    @classmethod
    def from_circumradius(cls, radius: float) -> Nonagon:
        """The nonagon inscribed in a circle of that radius."""
        return cls(2 * _positive("radius", radius) * math.sin(math.pi / 9))

    @classmethod
    def from_area(cls, area: float) -> Nonagon:
        return cls(math.sqrt(4 * _positive("area", area) * math.tan(math.pi / 9) / 9))

    def perimeter(self) -> float:
        return 9 * self.side

    def apothem(self) -> float:
        """Centre to the middle of a side: the radius of the inscribed circle."""
        return self.side / (2 * math.tan(math.pi / 9))

    def circumradius(self) -> float:
        """Centre to a corner: the radius of the circumscribed circle."""
        return self.side / (2 * math.sin(math.pi / 9))

    def area(self) -> float:
        return self.perimeter() * self.apothem() / 2

    def interior_angle(self) -> float:
        """Degrees inside each corner."""
        return (9 - 2) * 180 / 9

    def exterior_angle(self) -> float:
        return 360 / 9

    def diagonals(self) -> int:
        return 9 * (9 - 3) // 2

    def scaled(self, factor: float) -> Nonagon:
        return Nonagon(self.side * _positive("factor", factor))

    def vertices(self, cx: float = 0.0, cy: float = 0.0) -> list[tuple[float, float]]:
        """Corner points, counter-clockwise, the first straight above the centre."""
        r = self.circumradius()
        return [
            (cx + r * math.sin(2 * math.pi * k / 9), cy + r * math.cos(2 * math.pi * k / 9))
            for k in range(9)
        ]

    def bounding_box(self) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of the corners, centred on the origin."""
        xs, ys = zip(*self.vertices())
        return min(xs), min(ys), max(xs), max(ys)

    def contains(self, x: float, y: float) -> bool:
        """Whether the point lies inside (or on) the polygon centred on the origin."""
        corners = self.vertices()
        for k in range(9):
            (x1, y1), (x2, y2) = corners[k], corners[(k + 1) % 9]
            # Counter-clockwise corners: inside is to the left of every edge.
            if (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) > 1e-9:
                return False
        return True

    def width_across_flats(self) -> float:
        """Side to opposite side for an even count; side to opposite corner otherwise."""
        if 9 % 2 == 0:
            return 2 * self.apothem()
        return self.apothem() + self.circumradius()

    def incircle_area(self) -> float:
        return math.pi * self.apothem() ** 2

    def fill_ratio(self) -> float:
        """How much of its circumscribed circle the polygon covers."""
        return self.area() / (math.pi * self.circumradius() ** 2)

    def __str__(self) -> str:
        return f"nonagon with side {self.side:g}"


@dataclass(frozen=True)
class Decagon:
    """A regular polygon with 10 equal sides of length `side`."""

    side: float
    sides = 10

    def __post_init__(self) -> None:
        _positive("side", self.side)

    @classmethod
    def from_perimeter(cls, perimeter: float) -> Decagon:
        return cls(_positive("perimeter", perimeter) / 10)

    @classmethod
    def from_circumradius(cls, radius: float) -> Decagon:
        """The decagon inscribed in a circle of that radius."""
        return cls(2 * _positive("radius", radius) * math.sin(math.pi / 10))

    @classmethod
    def from_area(cls, area: float) -> Decagon:
        return cls(math.sqrt(4 * _positive("area", area) * math.tan(math.pi / 10) / 10))

    def perimeter(self) -> float:
        return 10 * self.side

    def apothem(self) -> float:
        """Centre to the middle of a side: the radius of the inscribed circle."""
        return self.side / (2 * math.tan(math.pi / 10))

    def circumradius(self) -> float:
        """Centre to a corner: the radius of the circumscribed circle."""
        return self.side / (2 * math.sin(math.pi / 10))

    def area(self) -> float:
        return self.perimeter() * self.apothem() / 2

    def interior_angle(self) -> float:
        """Degrees inside each corner."""
        return (10 - 2) * 180 / 10

    def exterior_angle(self) -> float:
        return 360 / 10

    def diagonals(self) -> int:
        return 10 * (10 - 3) // 2

    def scaled(self, factor: float) -> Decagon:
        return Decagon(self.side * _positive("factor", factor))

    def vertices(self, cx: float = 0.0, cy: float = 0.0) -> list[tuple[float, float]]:
        """Corner points, counter-clockwise, the first straight above the centre."""
        r = self.circumradius()
        return [
            (cx + r * math.sin(2 * math.pi * k / 10), cy + r * math.cos(2 * math.pi * k / 10))
            for k in range(10)
        ]

    def bounding_box(self) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of the corners, centred on the origin."""
        xs, ys = zip(*self.vertices())
        return min(xs), min(ys), max(xs), max(ys)

    def contains(self, x: float, y: float) -> bool:
        """Whether the point lies inside (or on) the polygon centred on the origin."""
        corners = self.vertices()
        for k in range(10):
            (x1, y1), (x2, y2) = corners[k], corners[(k + 1) % 10]
            # Counter-clockwise corners: inside is to the left of every edge.
            if (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) > 1e-9:
                return False
        return True

    def width_across_flats(self) -> float:
        """Side to opposite side for an even count; side to opposite corner otherwise."""
        if 10 % 2 == 0:
            return 2 * self.apothem()
        return self.apothem() + self.circumradius()

    def incircle_area(self) -> float:
        return math.pi * self.apothem() ** 2

    def fill_ratio(self) -> float:
        """How much of its circumscribed circle the polygon covers."""
        return self.area() / (math.pi * self.circumradius() ** 2)

    def __str__(self) -> str:
        return f"decagon with side {self.side:g}"


@dataclass(frozen=True)
class Hendecagon:
    """A regular polygon with 11 equal sides of length `side`."""

    side: float
    sides = 11

    def __post_init__(self) -> None:
        _positive("side", self.side)

    @classmethod
    def from_perimeter(cls, perimeter: float) -> Hendecagon:
        return cls(_positive("perimeter", perimeter) / 11)

    @classmethod
    def from_circumradius(cls, radius: float) -> Hendecagon:
        """The hendecagon inscribed in a circle of that radius."""
        return cls(2 * _positive("radius", radius) * math.sin(math.pi / 11))

    @classmethod
    def from_area(cls, area: float) -> Hendecagon:
        return cls(math.sqrt(4 * _positive("area", area) * math.tan(math.pi / 11) / 11))

    def perimeter(self) -> float:
        return 11 * self.side

    def apothem(self) -> float:
        """Centre to the middle of a side: the radius of the inscribed circle."""
        return self.side / (2 * math.tan(math.pi / 11))

    def circumradius(self) -> float:
        """Centre to a corner: the radius of the circumscribed circle."""
        return self.side / (2 * math.sin(math.pi / 11))

    def area(self) -> float:
        return self.perimeter() * self.apothem() / 2

    def interior_angle(self) -> float:
        """Degrees inside each corner."""
        return (11 - 2) * 180 / 11

    def exterior_angle(self) -> float:
        return 360 / 11

    def diagonals(self) -> int:
        return 11 * (11 - 3) // 2

    def scaled(self, factor: float) -> Hendecagon:
        return Hendecagon(self.side * _positive("factor", factor))

    def vertices(self, cx: float = 0.0, cy: float = 0.0) -> list[tuple[float, float]]:
        """Corner points, counter-clockwise, the first straight above the centre."""
        r = self.circumradius()
        return [
            (cx + r * math.sin(2 * math.pi * k / 11), cy + r * math.cos(2 * math.pi * k / 11))
            for k in range(11)
        ]

    def bounding_box(self) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of the corners, centred on the origin."""
        xs, ys = zip(*self.vertices())
        return min(xs), min(ys), max(xs), max(ys)

    def contains(self, x: float, y: float) -> bool:
        """Whether the point lies inside (or on) the polygon centred on the origin."""
        corners = self.vertices()
        for k in range(11):
            (x1, y1), (x2, y2) = corners[k], corners[(k + 1) % 11]
            # Counter-clockwise corners: inside is to the left of every edge.
            if (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) > 1e-9:
                return False
        return True

    def width_across_flats(self) -> float:
        """Side to opposite side for an even count; side to opposite corner otherwise."""
        if 11 % 2 == 0:
            return 2 * self.apothem()
        return self.apothem() + self.circumradius()

    def incircle_area(self) -> float:
        return math.pi * self.apothem() ** 2

    def fill_ratio(self) -> float:
        """How much of its circumscribed circle the polygon covers."""
        return self.area() / (math.pi * self.circumradius() ** 2)

    def __str__(self) -> str:
        return f"hendecagon with side {self.side:g}"


@dataclass(frozen=True)
class Dodecagon:
    """A regular polygon with 12 equal sides of length `side`."""

    side: float
    sides = 12

    def __post_init__(self) -> None:
        _positive("side", self.side)

    @classmethod
    def from_perimeter(cls, perimeter: float) -> Dodecagon:
        return cls(_positive("perimeter", perimeter) / 12)

    @classmethod
    def from_circumradius(cls, radius: float) -> Dodecagon:
        """The dodecagon inscribed in a circle of that radius."""
        return cls(2 * _positive("radius", radius) * math.sin(math.pi / 12))

    @classmethod
    def from_area(cls, area: float) -> Dodecagon:
        return cls(math.sqrt(4 * _positive("area", area) * math.tan(math.pi / 12) / 12))

    def perimeter(self) -> float:
        return 12 * self.side

    def apothem(self) -> float:
        """Centre to the middle of a side: the radius of the inscribed circle."""
        return self.side / (2 * math.tan(math.pi / 12))

    def circumradius(self) -> float:
        """Centre to a corner: the radius of the circumscribed circle."""
        return self.side / (2 * math.sin(math.pi / 12))

    def area(self) -> float:
        return self.perimeter() * self.apothem() / 2

    def interior_angle(self) -> float:
        """Degrees inside each corner."""
        return (12 - 2) * 180 / 12

    def exterior_angle(self) -> float:
        return 360 / 12

    def diagonals(self) -> int:
        return 12 * (12 - 3) // 2

    def scaled(self, factor: float) -> Dodecagon:
        return Dodecagon(self.side * _positive("factor", factor))

    def vertices(self, cx: float = 0.0, cy: float = 0.0) -> list[tuple[float, float]]:
        """Corner points, counter-clockwise, the first straight above the centre."""
        r = self.circumradius()
        return [
            (cx + r * math.sin(2 * math.pi * k / 12), cy + r * math.cos(2 * math.pi * k / 12))
            for k in range(12)
        ]

    def bounding_box(self) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of the corners, centred on the origin."""
        xs, ys = zip(*self.vertices())
        return min(xs), min(ys), max(xs), max(ys)

    def contains(self, x: float, y: float) -> bool:
        """Whether the point lies inside (or on) the polygon centred on the origin."""
        corners = self.vertices()
        for k in range(12):
            (x1, y1), (x2, y2) = corners[k], corners[(k + 1) % 12]
            # Counter-clockwise corners: inside is to the left of every edge.
            if (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) > 1e-9:
                return False
        return True

    def width_across_flats(self) -> float:
        """Side to opposite side for an even count; side to opposite corner otherwise."""
        if 12 % 2 == 0:
            return 2 * self.apothem()
        return self.apothem() + self.circumradius()

    def incircle_area(self) -> float:
        return math.pi * self.apothem() ** 2

    def fill_ratio(self) -> float:
        """How much of its circumscribed circle the polygon covers."""
        return self.area() / (math.pi * self.circumradius() ** 2)

    def __str__(self) -> str:
        return f"dodecagon with side {self.side:g}"


@dataclass(frozen=True)
class TriangularPrism:
    """A right prism on a regular triangle: two bases joined by 3 rectangles."""

    side: float
    height: float

    def __post_init__(self) -> None:
        _positive("side", self.side)
        _positive("height", self.height)

    @property
    def base(self) -> Triangle:
        return Triangle(self.side)

    def volume(self) -> float:
        return self.base.area() * self.height

    def lateral_area(self) -> float:
        return self.base.perimeter() * self.height

    def surface_area(self) -> float:
        return 2 * self.base.area() + self.lateral_area()

    def edges(self) -> int:
        return 3 * 3

    def faces(self) -> int:
        return 3 + 2


@dataclass(frozen=True)
class TriangularPyramid:
    """A right pyramid on a regular triangle, its apex above the base's centre."""

    side: float
    height: float

    def __post_init__(self) -> None:
        _positive("side", self.side)
        _positive("height", self.height)

    @property
    def base(self) -> Triangle:
        return Triangle(self.side)

    def volume(self) -> float:
        return self.base.area() * self.height / 3

    def slant_height(self) -> float:
        """Apex to the middle of a base edge."""
        return math.hypot(self.height, self.base.apothem())

    def lateral_area(self) -> float:
        return self.base.perimeter() * self.slant_height() / 2

    def surface_area(self) -> float:
        return self.base.area() + self.lateral_area()

    def lateral_edge(self) -> float:
        """Apex to a corner of the base."""
        return math.hypot(self.height, self.base.circumradius())

    def edges(self) -> int:
        return 2 * 3

    def faces(self) -> int:
        return 3 + 1


@dataclass(frozen=True)
class SquarePrism:
    """A right prism on a regular square: two bases joined by 4 rectangles."""

    side: float
    height: float

    def __post_init__(self) -> None:
        _positive("side", self.side)
        _positive("height", self.height)

    @property
    def base(self) -> Square:
        return Square(self.side)

    def volume(self) -> float:
        return self.base.area() * self.height

    def lateral_area(self) -> float:
        return self.base.perimeter() * self.height

    def surface_area(self) -> float:
        return 2 * self.base.area() + self.lateral_area()

    def edges(self) -> int:
        return 3 * 4

    def faces(self) -> int:
        return 4 + 2


@dataclass(frozen=True)
class SquarePyramid:
    """A right pyramid on a regular square, its apex above the base's centre."""

    side: float
    height: float

    def __post_init__(self) -> None:
        _positive("side", self.side)
        _positive("height", self.height)

    @property
    def base(self) -> Square:
        return Square(self.side)

    def volume(self) -> float:
        return self.base.area() * self.height / 3

    def slant_height(self) -> float:
        """Apex to the middle of a base edge."""
        return math.hypot(self.height, self.base.apothem())

    def lateral_area(self) -> float:
        return self.base.perimeter() * self.slant_height() / 2

    def surface_area(self) -> float:
        return self.base.area() + self.lateral_area()

    def lateral_edge(self) -> float:
        """Apex to a corner of the base."""
        return math.hypot(self.height, self.base.circumradius())

    def edges(self) -> int:
        return 2 * 4

    def faces(self) -> int:
        return 4 + 1


@dataclass(frozen=True)
class PentagonalPrism:
    """A right prism on a regular pentagon: two bases joined by 5 rectangles."""

    side: float
    height: float

    def __post_init__(self) -> None:
        _positive("side", self.side)
        _positive("height", self.height)

    @property
    def base(self) -> Pentagon:
        return Pentagon(self.side)

    def volume(self) -> float:
        return self.base.area() * self.height

    def lateral_area(self) -> float:
        return self.base.perimeter() * self.height

    def surface_area(self) -> float:
        return 2 * self.base.area() + self.lateral_area()

    def edges(self) -> int:
        return 3 * 5

    def faces(self) -> int:
        return 5 + 2


@dataclass(frozen=True)
class PentagonalPyramid:
    """A right pyramid on a regular pentagon, its apex above the base's centre."""

    side: float
    height: float

    def __post_init__(self) -> None:
        _positive("side", self.side)
        _positive("height", self.height)

    @property
    def base(self) -> Pentagon:
        return Pentagon(self.side)

    def volume(self) -> float:
        return self.base.area() * self.height / 3

    def slant_height(self) -> float:
        """Apex to the middle of a base edge."""
        return math.hypot(self.height, self.base.apothem())

    def lateral_area(self) -> float:
        return self.base.perimeter() * self.slant_height() / 2

    def surface_area(self) -> float:
        return self.base.area() + self.lateral_area()

    def lateral_edge(self) -> float:
        """Apex to a corner of the base."""
        return math.hypot(self.height, self.base.circumradius())

    def edges(self) -> int:
        return 2 * 5

    def faces(self) -> int:
        return 5 + 1


@dataclass(frozen=True)
class HexagonalPrism:
    """A right prism on a regular hexagon: two bases joined by 6 rectangles."""

    side: float
    height: float

    def __post_init__(self) -> None:
        _positive("side", self.side)
        _positive("height", self.height)

    @property
    def base(self) -> Hexagon:
        return Hexagon(self.side)

    def volume(self) -> float:
        return self.base.area() * self.height

    def lateral_area(self) -> float:
        return self.base.perimeter() * self.height

    def surface_area(self) -> float:
        return 2 * self.base.area() + self.lateral_area()

    def edges(self) -> int:
        return 3 * 6

    def faces(self) -> int:
        return 6 + 2


@dataclass(frozen=True)
class HexagonalPyramid:
    """A right pyramid on a regular hexagon, its apex above the base's centre."""

    side: float
    height: float

    def __post_init__(self) -> None:
        _positive("side", self.side)
        _positive("height", self.height)

    @property
    def base(self) -> Hexagon:
        return Hexagon(self.side)

    def volume(self) -> float:
        return self.base.area() * self.height / 3

    def slant_height(self) -> float:
        """Apex to the middle of a base edge."""
        return math.hypot(self.height, self.base.apothem())

    def lateral_area(self) -> float:
        return self.base.perimeter() * self.slant_height() / 2

    def surface_area(self) -> float:
        return self.base.area() + self.lateral_area()

    def lateral_edge(self) -> float:
        """Apex to a corner of the base."""
        return math.hypot(self.height, self.base.circumradius())

    def edges(self) -> int:
        return 2 * 6

    def faces(self) -> int:
        return 6 + 1


@dataclass(frozen=True)
class HeptagonalPrism:
    """A right prism on a regular heptagon: two bases joined by 7 rectangles."""

    side: float
    height: float

    def __post_init__(self) -> None:
        _positive("side", self.side)
        _positive("height", self.height)

    @property
    def base(self) -> Heptagon:
        return Heptagon(self.side)

    def volume(self) -> float:
        return self.base.perimeter() * self.height

    def lateral_area(self) -> float:
        return self.base.perimeter() * self.height

    def surface_area(self) -> float:
        return 2 * self.base.area() + self.lateral_area()

    def edges(self) -> int:
        return 3 * 7

    def faces(self) -> int:
        return 7 + 2


@dataclass(frozen=True)
class HeptagonalPyramid:
    """A right pyramid on a regular heptagon, its apex above the base's centre."""

    side: float
    height: float

    def __post_init__(self) -> None:
        _positive("side", self.side)
        _positive("height", self.height)

    @property
    def base(self) -> Heptagon:
        return Heptagon(self.side)

    def volume(self) -> float:
        return self.base.area() * self.height / 3

    def slant_height(self) -> float:
        """Apex to the middle of a base edge."""
        return math.hypot(self.height, self.base.apothem())

    def lateral_area(self) -> float:
        return self.base.perimeter() * self.slant_height() / 2

    def surface_area(self) -> float:
        return self.base.area() + self.lateral_area()

    def lateral_edge(self) -> float:
        """Apex to a corner of the base."""
        return math.hypot(self.height, self.base.circumradius())

    def edges(self) -> int:
        return 2 * 7

    def faces(self) -> int:
        return 7 + 1


@dataclass(frozen=True)
class OctagonalPrism:
    """A right prism on a regular octagon: two bases joined by 8 rectangles."""

    side: float
    height: float

    def __post_init__(self) -> None:
        _positive("side", self.side)
        _positive("height", self.height)

    @property
    def base(self) -> Octagon:
        return Octagon(self.side)

    def volume(self) -> float:
        return self.base.area() * self.height

    def lateral_area(self) -> float:
        return self.base.perimeter() * self.height

    def surface_area(self) -> float:
        return 2 * self.base.area() + self.lateral_area()

    def edges(self) -> int:
        return 3 * 8

    def faces(self) -> int:
        return 8 + 2


@dataclass(frozen=True)
class OctagonalPyramid:
    """A right pyramid on a regular octagon, its apex above the base's centre."""

    side: float
    height: float

    def __post_init__(self) -> None:
        _positive("side", self.side)
        _positive("height", self.height)

    @property
    def base(self) -> Octagon:
        return Octagon(self.side)

    def volume(self) -> float:
        return self.base.area() * self.height / 3

    def slant_height(self) -> float:
        """Apex to the middle of a base edge."""
        return math.hypot(self.height, self.base.apothem())

    def lateral_area(self) -> float:
        return self.base.perimeter() * self.slant_height() / 2

    def surface_area(self) -> float:
        return self.base.area() + self.lateral_area()

    def lateral_edge(self) -> float:
        """Apex to a corner of the base."""
        return math.hypot(self.height, self.base.circumradius())

    def edges(self) -> int:
        return 2 * 8

    def faces(self) -> int:
        return 8 + 1


@dataclass(frozen=True)
class NonagonalPrism:
    """A right prism on a regular nonagon: two bases joined by 9 rectangles."""

    side: float
    height: float

    def __post_init__(self) -> None:
        _positive("side", self.side)
        _positive("height", self.height)

    @property
    def base(self) -> Nonagon:
        return Nonagon(self.side)

    def volume(self) -> float:
        return self.base.area() * self.height

    def lateral_area(self) -> float:
        return self.base.perimeter() * self.height

    def surface_area(self) -> float:
        return 2 * self.base.area() + self.lateral_area()

    def edges(self) -> int:
        return 3 * 9

    def faces(self) -> int:
        return 9 + 2


@dataclass(frozen=True)
class NonagonalPyramid:
    """A right pyramid on a regular nonagon, its apex above the base's centre."""

    side: float
    height: float

    def __post_init__(self) -> None:
        _positive("side", self.side)
        _positive("height", self.height)

    @property
    def base(self) -> Nonagon:
        return Nonagon(self.side)

    def volume(self) -> float:
        return self.base.area() * self.height / 3

    def slant_height(self) -> float:
        """Apex to the middle of a base edge."""
        return math.hypot(self.height, self.base.apothem())

    def lateral_area(self) -> float:
        return self.base.perimeter() * self.slant_height() / 2

    def surface_area(self) -> float:
        return self.base.area() + self.lateral_area()

    def lateral_edge(self) -> float:
        """Apex to a corner of the base."""
        return math.hypot(self.height, self.base.circumradius())

    def edges(self) -> int:
        return 2 * 9

    def faces(self) -> int:
        return 9 + 1


@dataclass(frozen=True)
class DecagonalPrism:
    """A right prism on a regular decagon: two bases joined by 10 rectangles."""

    side: float
    height: float

    def __post_init__(self) -> None:
        _positive("side", self.side)
        _positive("height", self.height)

    @property
    def base(self) -> Decagon:
        return Decagon(self.side)

    def volume(self) -> float:
        return self.base.area() * self.height

    def lateral_area(self) -> float:
        return self.base.perimeter() * self.height

    def surface_area(self) -> float:
        return 2 * self.base.area() + self.lateral_area()

    def edges(self) -> int:
        return 3 * 10

    def faces(self) -> int:
        return 10 + 2


@dataclass(frozen=True)
class DecagonalPyramid:
    """A right pyramid on a regular decagon, its apex above the base's centre."""

    side: float
    height: float

    def __post_init__(self) -> None:
        _positive("side", self.side)
        _positive("height", self.height)

    @property
    def base(self) -> Decagon:
        return Decagon(self.side)

    def volume(self) -> float:
        return self.base.area() * self.height / 3

    def slant_height(self) -> float:
        """Apex to the middle of a base edge."""
        return math.hypot(self.height, self.base.apothem())

    def lateral_area(self) -> float:
        return self.base.perimeter() * self.slant_height() / 2

    def surface_area(self) -> float:
        return self.base.area() + self.lateral_area()

    def lateral_edge(self) -> float:
        """Apex to a corner of the base."""
        return math.hypot(self.height, self.base.circumradius())

    def edges(self) -> int:
        return 2 * 10

    def faces(self) -> int:
        return 10 + 1


@dataclass(frozen=True)
class HendecagonalPrism:
    """A right prism on a regular hendecagon: two bases joined by 11 rectangles."""

    side: float
    height: float

    def __post_init__(self) -> None:
        _positive("side", self.side)
        _positive("height", self.height)

    @property
    def base(self) -> Hendecagon:
        return Hendecagon(self.side)

    def volume(self) -> float:
        return self.base.area() * self.height

    def lateral_area(self) -> float:
        return self.base.perimeter() * self.height

    def surface_area(self) -> float:
        return 2 * self.base.area() + self.lateral_area()

    def edges(self) -> int:
        return 3 * 11

    def faces(self) -> int:
        return 11 + 2


@dataclass(frozen=True)
class HendecagonalPyramid:
    """A right pyramid on a regular hendecagon, its apex above the base's centre."""

    side: float
    height: float

    def __post_init__(self) -> None:
        _positive("side", self.side)
        _positive("height", self.height)

    @property
    def base(self) -> Hendecagon:
        return Hendecagon(self.side)

    def volume(self) -> float:
        return self.base.area() * self.height / 3

    def slant_height(self) -> float:
        """Apex to the middle of a base edge."""
        return math.hypot(self.height, self.base.apothem())

    def lateral_area(self) -> float:
        return self.base.perimeter() * self.slant_height() / 2

    def surface_area(self) -> float:
        return self.base.area() + self.lateral_area()

    def lateral_edge(self) -> float:
        """Apex to a corner of the base."""
        return math.hypot(self.height, self.base.circumradius())

    def edges(self) -> int:
        return 2 * 11

    def faces(self) -> int:
        return 11 + 1


@dataclass(frozen=True)
class DodecagonalPrism:
    """A right prism on a regular dodecagon: two bases joined by 12 rectangles."""

    side: float
    height: float

    def __post_init__(self) -> None:
        _positive("side", self.side)
        _positive("height", self.height)

    @property
    def base(self) -> Dodecagon:
        return Dodecagon(self.side)

    def volume(self) -> float:
        return self.base.area() * self.height

    def lateral_area(self) -> float:
        return self.base.perimeter() * self.height

    def surface_area(self) -> float:
        return 2 * self.base.area() + self.lateral_area()

    def edges(self) -> int:
        return 3 * 12

    def faces(self) -> int:
        return 12 + 2


@dataclass(frozen=True)
class DodecagonalPyramid:
    """A right pyramid on a regular dodecagon, its apex above the base's centre."""

    side: float
    height: float

    def __post_init__(self) -> None:
        _positive("side", self.side)
        _positive("height", self.height)

    @property
    def base(self) -> Dodecagon:
        return Dodecagon(self.side)

    def volume(self) -> float:
        return self.base.area() * self.height / 3

    def slant_height(self) -> float:
        """Apex to the middle of a base edge."""
        return math.hypot(self.height, self.base.apothem())

    def lateral_area(self) -> float:
        return self.base.perimeter() * self.slant_height() / 2

    def surface_area(self) -> float:
        return self.base.area() + self.lateral_area()

    def lateral_edge(self) -> float:
        """Apex to a corner of the base."""
        return math.hypot(self.height, self.base.circumradius())

    def edges(self) -> int:
        return 2 * 12

    def faces(self) -> int:
        return 12 + 1


@dataclass(frozen=True)
class TriangularFrustum:
    """A triangular pyramid with its top cut off parallel to the base."""

    bottom_side: float
    top_side: float
    height: float

    def __post_init__(self) -> None:
        _positive("bottom side", self.bottom_side)
        _positive("top side", self.top_side)
        _positive("height", self.height)
        if self.top_side >= self.bottom_side:
            raise ShapeError("the top of a frustum is smaller than its bottom")

    @property
    def bottom(self) -> Triangle:
        return Triangle(self.bottom_side)

    @property
    def top(self) -> Triangle:
        return Triangle(self.top_side)

    def volume(self) -> float:
        a1, a2 = self.bottom.area(), self.top.area()
        return self.height * (a1 + a2 + math.sqrt(a1 * a2)) / 3

    def slant_height(self) -> float:
        return math.hypot(self.height, self.bottom.apothem() - self.top.apothem())

    def lateral_area(self) -> float:
        return (self.bottom.perimeter() + self.top.perimeter()) * self.slant_height() / 2

    def surface_area(self) -> float:
        return self.bottom.area() + self.top.area() + self.lateral_area()


@dataclass(frozen=True)
class SquareFrustum:
    """A square pyramid with its top cut off parallel to the base."""

    bottom_side: float
    top_side: float
    height: float

    def __post_init__(self) -> None:
        _positive("bottom side", self.bottom_side)
        _positive("top side", self.top_side)
        _positive("height", self.height)
        if self.top_side >= self.bottom_side:
            raise ShapeError("the top of a frustum is smaller than its bottom")

    @property
    def bottom(self) -> Square:
        return Square(self.bottom_side)

    @property
    def top(self) -> Square:
        return Square(self.top_side)

    def volume(self) -> float:
        a1, a2 = self.bottom.area(), self.top.area()
        return self.height * (a1 + a2 + math.sqrt(a1 * a2)) / 3

    def slant_height(self) -> float:
        return math.hypot(self.height, self.bottom.apothem() - self.top.apothem())

    def lateral_area(self) -> float:
        return (self.bottom.perimeter() + self.top.perimeter()) * self.slant_height() / 2

    def surface_area(self) -> float:
        return self.bottom.area() + self.top.area() + self.lateral_area()


@dataclass(frozen=True)
class PentagonalFrustum:
    """A pentagonal pyramid with its top cut off parallel to the base."""

    bottom_side: float
    top_side: float
    height: float

    def __post_init__(self) -> None:
        _positive("bottom side", self.bottom_side)
        _positive("top side", self.top_side)
        _positive("height", self.height)
        if self.top_side >= self.bottom_side:
            raise ShapeError("the top of a frustum is smaller than its bottom")

    @property
    def bottom(self) -> Pentagon:
        return Pentagon(self.bottom_side)

    @property
    def top(self) -> Pentagon:
        return Pentagon(self.top_side)

    def volume(self) -> float:
        a1, a2 = self.bottom.area(), self.top.area()
        return self.height * (a1 + a2 + math.sqrt(a1 * a2)) / 3

    def slant_height(self) -> float:
        return math.hypot(self.height, self.bottom.apothem() - self.top.apothem())

    def lateral_area(self) -> float:
        return (self.bottom.perimeter() + self.top.perimeter()) * self.slant_height() / 2

    def surface_area(self) -> float:
        return self.bottom.area() + self.top.area() + self.lateral_area()


@dataclass(frozen=True)
class HexagonalFrustum:
    """A hexagonal pyramid with its top cut off parallel to the base."""

    bottom_side: float
    top_side: float
    height: float

    def __post_init__(self) -> None:
        _positive("bottom side", self.bottom_side)
        _positive("top side", self.top_side)
        _positive("height", self.height)
        if self.top_side >= self.bottom_side:
            raise ShapeError("the top of a frustum is smaller than its bottom")

    @property
    def bottom(self) -> Hexagon:
        return Hexagon(self.bottom_side)

    @property
    def top(self) -> Hexagon:
        return Hexagon(self.top_side)

    def volume(self) -> float:
        a1, a2 = self.bottom.area(), self.top.area()
        return self.height * (a1 + a2 + math.sqrt(a1 * a2)) / 3

    def slant_height(self) -> float:
        return math.hypot(self.height, self.bottom.apothem() - self.top.apothem())

    def lateral_area(self) -> float:
        return (self.bottom.perimeter() + self.top.perimeter()) * self.slant_height() / 2

    def surface_area(self) -> float:
        return self.bottom.area() + self.top.area() + self.lateral_area()


@dataclass(frozen=True)
class HeptagonalFrustum:
    """A heptagonal pyramid with its top cut off parallel to the base."""

    bottom_side: float
    top_side: float
    height: float

    def __post_init__(self) -> None:
        _positive("bottom side", self.bottom_side)
        _positive("top side", self.top_side)
        _positive("height", self.height)
        if self.top_side >= self.bottom_side:
            raise ShapeError("the top of a frustum is smaller than its bottom")

    @property
    def bottom(self) -> Heptagon:
        return Heptagon(self.bottom_side)

    @property
    def top(self) -> Heptagon:
        return Heptagon(self.top_side)

    def volume(self) -> float:
        a1, a2 = self.bottom.area(), self.top.area()
        return self.height * (a1 + a2 + math.sqrt(a1 * a2)) / 3

    def slant_height(self) -> float:
        return math.hypot(self.height, self.bottom.apothem() - self.top.apothem())

    def lateral_area(self) -> float:
        return (self.bottom.perimeter() + self.top.perimeter()) * self.slant_height() / 2

    def surface_area(self) -> float:
        return self.bottom.area() + self.top.area() + self.lateral_area()


@dataclass(frozen=True)
class OctagonalFrustum:
    """A octagonal pyramid with its top cut off parallel to the base."""

    bottom_side: float
    top_side: float
    height: float

    def __post_init__(self) -> None:
        _positive("bottom side", self.bottom_side)
        _positive("top side", self.top_side)
        _positive("height", self.height)
        if self.top_side >= self.bottom_side:
            raise ShapeError("the top of a frustum is smaller than its bottom")

    @property
    def bottom(self) -> Octagon:
        return Octagon(self.bottom_side)

    @property
    def top(self) -> Octagon:
        return Octagon(self.top_side)

    def volume(self) -> float:
        a1, a2 = self.bottom.area(), self.top.area()
        return self.height * (a1 + a2 + math.sqrt(a1 * a2)) / 3

    def slant_height(self) -> float:
        return math.hypot(self.height, self.bottom.apothem() - self.top.apothem())

    def lateral_area(self) -> float:
        return (self.bottom.perimeter() + self.top.perimeter()) * self.slant_height() / 2

    def surface_area(self) -> float:
        return self.bottom.area() + self.top.area() + self.lateral_area()


@dataclass(frozen=True)
class NonagonalFrustum:
    """A nonagonal pyramid with its top cut off parallel to the base."""

    bottom_side: float
    top_side: float
    height: float

    def __post_init__(self) -> None:
        _positive("bottom side", self.bottom_side)
        _positive("top side", self.top_side)
        _positive("height", self.height)
        if self.top_side >= self.bottom_side:
            raise ShapeError("the top of a frustum is smaller than its bottom")

    @property
    def bottom(self) -> Nonagon:
        return Nonagon(self.bottom_side)

    @property
    def top(self) -> Nonagon:
        return Nonagon(self.top_side)

    def volume(self) -> float:
        a1, a2 = self.bottom.area(), self.top.area()
        return self.height * (a1 + a2 + math.sqrt(a1 * a2)) / 3

    def slant_height(self) -> float:
        return math.hypot(self.height, self.bottom.apothem() - self.top.apothem())

    def lateral_area(self) -> float:
        return (self.bottom.perimeter() + self.top.perimeter()) * self.slant_height() / 2

    def surface_area(self) -> float:
        return self.bottom.area() + self.top.area() + self.lateral_area()


@dataclass(frozen=True)
class DecagonalFrustum:
    """A decagonal pyramid with its top cut off parallel to the base."""

    bottom_side: float
    top_side: float
    height: float

    def __post_init__(self) -> None:
        _positive("bottom side", self.bottom_side)
        _positive("top side", self.top_side)
        _positive("height", self.height)
        if self.top_side >= self.bottom_side:
            raise ShapeError("the top of a frustum is smaller than its bottom")

    @property
    def bottom(self) -> Decagon:
        return Decagon(self.bottom_side)

    @property
    def top(self) -> Decagon:
        return Decagon(self.top_side)

    def volume(self) -> float:
        a1, a2 = self.bottom.area(), self.top.area()
        return self.height * (a1 + a2 + math.sqrt(a1 * a2)) / 3

    def slant_height(self) -> float:
        return math.hypot(self.height, self.bottom.apothem() - self.top.apothem())

    def lateral_area(self) -> float:
        return (self.bottom.perimeter() + self.top.perimeter()) * self.slant_height() / 2

    def surface_area(self) -> float:
        return self.bottom.area() + self.top.area() + self.lateral_area()


@dataclass(frozen=True)
class HendecagonalFrustum:
    """A hendecagonal pyramid with its top cut off parallel to the base."""

    bottom_side: float
    top_side: float
    height: float

    def __post_init__(self) -> None:
        _positive("bottom side", self.bottom_side)
        _positive("top side", self.top_side)
        _positive("height", self.height)
        if self.top_side >= self.bottom_side:
            raise ShapeError("the top of a frustum is smaller than its bottom")

    @property
    def bottom(self) -> Hendecagon:
        return Hendecagon(self.bottom_side)

    @property
    def top(self) -> Hendecagon:
        return Hendecagon(self.top_side)

    def volume(self) -> float:
        a1, a2 = self.bottom.area(), self.top.area()
        return self.height * (a1 + a2 + math.sqrt(a1 * a2)) / 3

    def slant_height(self) -> float:
        return math.hypot(self.height, self.bottom.apothem() - self.top.apothem())

    def lateral_area(self) -> float:
        return (self.bottom.perimeter() + self.top.perimeter()) * self.slant_height() / 2

    def surface_area(self) -> float:
        return self.bottom.area() + self.top.area() + self.lateral_area()


@dataclass(frozen=True)
class DodecagonalFrustum:
    """A dodecagonal pyramid with its top cut off parallel to the base."""

    bottom_side: float
    top_side: float
    height: float

    def __post_init__(self) -> None:
        _positive("bottom side", self.bottom_side)
        _positive("top side", self.top_side)
        _positive("height", self.height)
        if self.top_side >= self.bottom_side:
            raise ShapeError("the top of a frustum is smaller than its bottom")

    @property
    def bottom(self) -> Dodecagon:
        return Dodecagon(self.bottom_side)

    @property
    def top(self) -> Dodecagon:
        return Dodecagon(self.top_side)

    def volume(self) -> float:
        a1, a2 = self.bottom.area(), self.top.area()
        return self.height * (a1 + a2 + math.sqrt(a1 * a2)) / 3

    def slant_height(self) -> float:
        return math.hypot(self.height, self.bottom.apothem() - self.top.apothem())

    def lateral_area(self) -> float:
        return (self.bottom.perimeter() + self.top.perimeter()) * self.slant_height() / 2

    def surface_area(self) -> float:
        return self.bottom.area() + self.top.area() + self.lateral_area()


POLYGONS = {3: Triangle, 4: Square, 5: Pentagon, 6: Hexagon, 7: Heptagon, 8: Octagon, 9: Nonagon, 10: Decagon, 11: Hendecagon, 12: Dodecagon}
PRISMS = {3: TriangularPrism, 4: SquarePrism, 5: PentagonalPrism, 6: HexagonalPrism, 7: HeptagonalPrism, 8: OctagonalPrism, 9: NonagonalPrism, 10: DecagonalPrism, 11: HendecagonalPrism, 12: DodecagonalPrism}
PYRAMIDS = {3: TriangularPyramid, 4: SquarePyramid, 5: PentagonalPyramid, 6: HexagonalPyramid, 7: HeptagonalPyramid, 8: OctagonalPyramid, 9: NonagonalPyramid, 10: DecagonalPyramid, 11: HendecagonalPyramid, 12: DodecagonalPyramid}


def polygon(sides: int, side: float):
    """The regular polygon with that many sides."""
    try:
        return POLYGONS[sides](side)
    except KeyError:
        raise ShapeError(f"no named polygon with {sides} sides") from None
