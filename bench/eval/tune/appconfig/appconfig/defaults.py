"""Every setting, its default, and how a string from a file or the environment is read."""

from __future__ import annotations

from collections.abc import Callable


def _bool(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"not a yes/no value: {text!r}")


SETTINGS: dict[str, tuple[object, Callable[[str], object]]] = {
    "host": ("127.0.0.1", str),
    "port": (8080, int),
    "debug": (False, _bool),
    "log_level": ("info", str.lower),
    "workers": (2, int),
    "timeout_s": (30.0, float),
}


def defaults() -> dict[str, object]:
    return {name: default for name, (default, _) in SETTINGS.items()}


def parse(name: str, text: str) -> object:
    _, reader = SETTINGS[name]
    return reader(text)
