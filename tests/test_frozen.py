"""`@frozen` behaves as `@dataclass(frozen=True)` does: each case is checked against a twin
class the standard library generates."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import pytest

from agent.frozen import frozen


def twins(body: dict[str, Any], bases: tuple[type, ...] = ()) -> tuple[type, type]:
    """The same class body made by @frozen and by @dataclass(frozen=True)."""
    made = []
    for decorate in (frozen, dataclass(frozen=True)):
        cls = type("Point", bases, {**body, "__module__": __name__, "__qualname__": "Point"})
        made.append(decorate(cls))
    return made[0], made[1]


FIELDS = {
    "__annotations__": {"x": "int", "y": "int", "note": "str", "tags": "list[str]"},
    "note": field(default="", compare=False),
    "tags": field(default_factory=list, hash=False, repr=False),
}


def test_equality_hash_and_repr_are_the_generated_ones() -> None:
    ours, theirs = twins(FIELDS)
    for cls in (ours, theirs):
        a, b = cls(1, 2, "a", ["t"]), cls(1, 2, "b", ["t"])
        assert a == b and (a != b) is False  # `note` is not compared
        assert cls(1, 2) != cls(2, 1)
        assert a != (1, 2)  # another type: NotImplemented, then identity
    assert hash(ours(1, 2, "a", ["x"])) == hash(theirs(1, 2, "a", ["x"]))  # tags not hashed
    assert (
        repr(ours(1, 2, "n", ["t"]))
        == repr(theirs(1, 2, "n", ["t"]))
        == "Point(x=1, y=2, note='n')"
    )


def test_only_the_same_class_is_equal() -> None:
    ours, _ = twins(FIELDS)
    child = frozen(type("Child", (ours,), {"__module__": __name__}))
    assert ours(1, 2) != child(1, 2) and child(1, 2) == child(1, 2)


def test_it_is_frozen_and_its_fields_are_a_dataclass() -> None:
    ours, _ = twins(FIELDS)
    point = ours(1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        point.x = 3  # type: ignore[attr-defined]
    assert [f.name for f in dataclasses.fields(point)] == ["x", "y", "note", "tags"]
    assert dataclasses.replace(point, y=5) == ours(1, 5)
    assert dataclasses.asdict(point) == {"x": 1, "y": 2, "note": "", "tags": []}


def test_methods_the_class_writes_are_kept() -> None:
    def same_x(self: Any, other: object) -> bool:
        return getattr(other, "x", None) == self.x

    body = {**FIELDS, "__eq__": same_x, "__repr__": lambda self: "mine"}
    for cls in twins(body):
        assert cls(1, 2) == cls(1, 3) and repr(cls(1, 2)) == "mine"
        assert hash(cls(1, 2)) != hash(cls(1, 3))  # __eq__ alone: the hash is still made
    body = {**FIELDS, "__hash__": lambda self: 7}
    assert all(hash(cls(1, 2)) == 7 for cls in twins(body))


def test_a_recursive_value_shows_dots_as_dataclass_does() -> None:
    body = {"__annotations__": {"items": "list[Any]"}}
    for cls in twins(body):
        point = cls([])
        point.items.append(point)
        assert repr(point) == "Point(items=[...])"
