"""`@frozen`: a frozen dataclass whose methods are written once, here, for every class.

`dataclasses` compiles every method of every class with exec as its module is imported: six
functions for a frozen class, about 0.4 ms a class on a 2-core machine, and kiln defines a
hundred such classes before its first request. `@frozen` has `dataclasses` collect the
fields only; `__init__`, `__eq__`, `__hash__`, `__repr__`, `__setattr__` and `__delattr__`
are the shared functions below (an `__init__` is a closure over its class's fields, made
without compiling anything), and behave as the generated ones do: arguments bound as the
generated signature binds them (defaults, factories, keyword-only fields, `init=False`
fields set to their default), `__post_init__` called, fields compared in order, only
instances of the very same class equal, `compare`, `hash` and `repr` of `field()`
honoured, a method the class writes itself kept, and no field assigned or deleted once
made. A class with an `InitVar` gets the generated `__init__` (it passes them on).

It knows nothing of sandboxes: it lives in sandbox/, the package below all others, so that
the sandbox's classes (the settings and the layout loaded before the container is asked
for among them) and the agent's use the one.
"""

from __future__ import annotations

import dataclasses
import inspect
import reprlib
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T", bound=type)

_NAMES: dict[tuple[type, str], tuple[str, ...]] = {}


def _names(cls: type, role: str) -> tuple[str, ...]:
    """The names of `cls`'s fields that take part in `role` ("compare", "hash", "repr")."""
    names = _NAMES.get((cls, role))
    if names is None:
        names = _NAMES[cls, role] = tuple(
            f.name for f in dataclasses.fields(cls) if _takes_part(f, role)
        )
    return names


def _takes_part(field: dataclasses.Field[Any], role: str) -> bool:
    if role == "hash":  # None: as it compares (what dataclass does)
        return bool(field.compare if field.hash is None else field.hash)
    return bool(getattr(field, role))


def _values(self: object, role: str) -> tuple[Any, ...]:
    return tuple(getattr(self, name) for name in _names(type(self), role))


def _eq(self: object, other: object) -> bool:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _values(self, "compare") == _values(other, "compare")


def _hash(self: object) -> int:
    return hash(_values(self, "hash"))


@reprlib.recursive_repr()
def _repr(self: object) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in _names(type(self), "repr"))
    return f"{type(self).__qualname__}({shown})"


def _setattr(self: object, name: str, value: Any) -> None:
    # As the generated one: a subclass that is not itself made frozen may add attributes.
    if "__setattr__" in type(self).__dict__ or name in type(self).__dataclass_fields__:  # type: ignore[attr-defined]
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
    object.__setattr__(self, name, value)


def _delattr(self: object, name: str) -> None:
    if "__delattr__" in type(self).__dict__ or name in type(self).__dataclass_fields__:  # type: ignore[attr-defined]
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
    object.__delattr__(self, name)


def _init_for(cls: type) -> Callable[..., None]:
    """`cls`'s `__init__`: its fields' arguments bound as the signature `dataclasses` would
    generate binds them, each field set (an `init=False` one to its default), then
    `__post_init__` when the class has one."""
    every = dataclasses.fields(cls)
    positional = tuple(f.name for f in every if f.init and not f.kw_only)
    taken = frozenset(f.name for f in every if f.init)
    steps = tuple((f.name, f.init, f.default, f.default_factory) for f in every)
    post_init = hasattr(cls, "__post_init__")
    missing, called = dataclasses.MISSING, f"{cls.__qualname__}.__init__()"

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(positional):
            raise TypeError(
                f"{called} takes {len(positional) + 1} positional arguments but "
                f"{len(args) + 1} were given"
            )
        given = dict(zip(positional, args, strict=False))  # the rest by keyword, or defaults
        for name, value in kwargs.items():
            if name not in taken:
                raise TypeError(f"{called} got an unexpected keyword argument {name!r}")
            if name in given:
                raise TypeError(f"{called} got multiple values for argument {name!r}")
            given[name] = value
        fields = self.__dict__
        for name, init, default, factory in steps:
            if init and name in given:
                fields[name] = given[name]
            elif default is not missing:
                fields[name] = default
            elif factory is not missing:
                fields[name] = factory()
            elif init:
                raise TypeError(f"{called} missing a required argument: {name!r}")
        if post_init:
            self.__post_init__()

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _has_init_var(cls: type) -> bool:
    declared = list(inspect.get_annotations(cls).values())
    for base in cls.__mro__[1:]:
        declared += [f.type for f in getattr(base, "__dataclass_fields__", {}).values()]
    return any("InitVar" in str(kind) for kind in declared)


_SHARED = {"__eq__": _eq, "__hash__": _hash, "__repr__": _repr}
_FROZEN = {"__setattr__": _setattr, "__delattr__": _delattr}


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def frozen(cls: T) -> T:
    # A class that writes __eq__ alone gets __hash__ = None from Python: not its own.
    own = {name for name in _SHARED if name in cls.__dict__}
    if cls.__dict__.get("__hash__", 0) is None and "__eq__" in own:
        own.remove("__hash__")
    if _has_init_var(cls):
        dataclasses.dataclass(frozen=True, eq=False, repr=False)(cls)
    else:
        for name in _FROZEN:
            if name in cls.__dict__:  # as dataclass(frozen=True) refuses it
                raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
        undocumented = not cls.__doc__
        dataclasses.dataclass(init=False, eq=False, repr=False)(cls)  # the same class, changed
        if "__init__" not in cls.__dict__:
            cls.__init__ = _init_for(cls)  # type: ignore[misc]
        for name, shared in _FROZEN.items():
            setattr(cls, name, shared)
        if undocumented:  # as dataclasses writes it, from the signature it would generate
            cls.__doc__ = f"{cls.__name__}({', '.join(f.name for f in dataclasses.fields(cls))})"
    for name, shared in _SHARED.items():
        if name not in own:
            setattr(cls, name, shared)
    return cls
