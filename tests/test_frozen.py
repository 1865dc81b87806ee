"""`@frozen` behaves as `@dataclass(frozen=True)` does: each case is checked against a twin
class the standard library generates, construction included."""

from __future__ import annotations

import dataclasses
from dataclasses import InitVar, dataclass, field  # noqa: F401 (InitVar: read by name below)
from typing import Any

import pytest

from sandbox.frozen import frozen


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


INIT_FIELDS = {
    "__annotations__": {
        "x": "int", "y": "int", "tags": "list[str]", "seen": "int", "key": "str",
    },
    "y": 2,
    "tags": field(default_factory=list),
    "seen": field(default=0, init=False),
    "key": field(default="k", kw_only=True),
}  # fmt: skip


def made(cls: type, *args: Any, **kwargs: Any) -> Any:
    """What constructing `cls` gives: its fields, or the kind of error it raised."""
    try:
        point = cls(*args, **kwargs)
    except TypeError:
        return TypeError
    return dataclasses.asdict(point)


@pytest.mark.parametrize(
    "args, kwargs",
    [
        ((1,), {}),
        ((1, 5), {}),
        ((1,), {"y": 5, "key": "z"}),
        ((), {"x": 1, "tags": ["t"]}),
        ((1, 2, ["t"]), {}),
        ((), {}),  # x missing
        ((1, 2, [], 4), {}),  # one too many: `seen` is not an argument
        ((1,), {"x": 2}),  # x twice
        ((1,), {"seen": 3}),  # not an argument
        ((1,), {"nope": 3}),
        ((1, 2, [], "k"), {}),  # `key` is keyword-only
    ],
)
def test_construction_binds_arguments_as_the_generated_init(
    args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    ours, theirs = twins(INIT_FIELDS)
    assert made(ours, *args, **kwargs) == made(theirs, *args, **kwargs)


def test_a_default_factory_makes_a_new_value_each_time_and_post_init_runs() -> None:
    calls: list[object] = []
    body = {**INIT_FIELDS, "__post_init__": lambda self: calls.append(self)}
    for cls in twins(body):
        a, b = cls(1), cls(1)
        assert a.tags == [] and a.tags is not b.tags and a.seen == 0
        assert calls[-2:] == [a, b]


def test_fields_cannot_change_but_a_plain_subclass_may_add_attributes() -> None:
    for cls in twins(INIT_FIELDS):
        point = cls(1)
        with pytest.raises(dataclasses.FrozenInstanceError):
            point.x = 2
        with pytest.raises(dataclasses.FrozenInstanceError):
            del point.x
        with pytest.raises(dataclasses.FrozenInstanceError):
            point.other = 1  # a made-frozen class takes no new attribute
        plain = type("Plain", (cls,), {})(1)
        plain.other = 1
        assert plain.other == 1
        with pytest.raises(dataclasses.FrozenInstanceError):
            plain.x = 2


def test_a_subclass_takes_its_bases_fields_first() -> None:
    ours, theirs = twins(INIT_FIELDS)
    more = {"__annotations__": {"z": "int"}, "z": 9}
    for base in (ours, theirs):
        decorate = frozen if base is ours else dataclass(frozen=True)
        child = decorate(type("Child", (base,), {**more, "__module__": __name__}))
        assert dataclasses.asdict(child(1, 2, [], 3)) == {
            "x": 1, "y": 2, "tags": [], "seen": 0, "key": "k", "z": 3,
        }  # fmt: skip
        assert dataclasses.replace(child(1), z=4).z == 4


def test_an_init_var_is_passed_to_post_init() -> None:
    def post_init(self: Any, scale: int) -> None:
        object.__setattr__(self, "x", self.x * scale)

    body = {"__annotations__": {"x": "int", "scale": "InitVar[int]"}, "__post_init__": post_init}
    for cls in twins(body):
        assert cls(2, 3).x == 6


def test_an_undocumented_class_is_described_by_its_fields() -> None:
    ours, _ = twins(INIT_FIELDS)
    assert ours.__doc__ == "Point(x, y, tags, seen, key)"
