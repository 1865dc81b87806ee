"""Events back from their JSON shape (`Event.to_dict()`), for resumed sessions."""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import functools
import types
import typing
from typing import TYPE_CHECKING, Any

from agent import events
from agent.events import CandidateKind, Event, EventBase, Notice, PlanStep, TurnStarted, Usage

if TYPE_CHECKING:
    from agent.store.db import Store


@functools.cache
def _classes() -> dict[str, type[EventBase]]:
    found: dict[str, type[EventBase]] = {}
    for value in vars(events).values():
        if isinstance(value, type) and issubclass(value, EventBase) and value is not EventBase:
            found[value.__new__(value).kind] = value
    return found


def stored_events(store: Store, session_id: str, last: int | None = None) -> list[Event] | None:
    """A stored session's events (by id, unique prefix or "last"); None when none matches.
    With `last`, only its last steps: at most that many events, from a step's start (no
    tool call cut from its result). Light enough for a front end to draw how a resumed
    session ended before the session loads."""
    row = store.find(session_id)
    if row is None:
        return None
    decoded = [event_from_dict(d) for d in store.events(row.id, last)]
    if last is not None and len(decoded) >= last:
        start = next((i for i, e in enumerate(decoded) if isinstance(e, TurnStarted)), 0)
        decoded = decoded[start:]
    return decoded


def event_from_dict(data: dict[str, Any]) -> Event:
    """The event `data` describes; an unknown type becomes a Notice rather than an error."""
    cls = _classes().get(str(data.get("type")))
    if cls is None:
        return Notice(f"(stored event of unknown type {data.get('type')!r})")
    if cls is events.CandidatesTried and "how" not in data:
        data = {**data, "how": _how_of_old(data)}
    kwargs = {name: _convert(hint, data[name]) for name, hint in _fields(cls) if name in data}
    return cls(**kwargs)  # type: ignore[return-value]  # every EventBase is in Event


_FIELDS: dict[type[EventBase], tuple[tuple[str, Any], ...]] = {}


def _fields(cls: type[EventBase]) -> tuple[tuple[str, Any], ...]:
    """Each field's name and type, worked out once per class: a resumed session of 1,000
    steps loads thousands of events, and type hints are slow to resolve."""
    if cls not in _FIELDS:
        hints = typing.get_type_hints(cls, vars(events))
        _FIELDS[cls] = tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls))
    return _FIELDS[cls]


def _convert(hint: Any, value: Any) -> Any:
    if value is None:
        return None
    if hint is Usage:
        return Usage(**value)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(value)
    if isinstance(hint, types.UnionType):  # a mode: an approval mode, or a review's
        for option in typing.get_args(hint):
            if isinstance(option, type) and issubclass(option, enum.Enum):
                with contextlib.suppress(ValueError):
                    return option(value)
        return value
    if typing.get_origin(hint) is tuple:
        (item, *_) = typing.get_args(hint)
        if item is PlanStep:
            return tuple(PlanStep(v["title"], events.PlanStatus(v["status"])) for v in value)
        return tuple(value)
    return value


def _how_of_old(data: dict[str, Any]) -> CandidateKind:
    """A CandidatesTried stored before `how`, from its three booleans. A stub's modules
    were stored as rewrites then: they load as such."""
    if data.get("of_rewrite"):
        return CandidateKind.PART_OF_REWRITE
    if data.get("by_kiln"):
        return CandidateKind.VARIANT
    return CandidateKind.REWRITE if data.get("rewrites") else CandidateKind.SAMPLED_EDIT
