"""Layered JSON configuration: defaults, then the site file, then the user file.

Later layers win. A missing layer file is skipped, a broken one is an error that names it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


class ConfigError(Exception):
    pass


def merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """Return a new dict with `override` laid over `base`; neither argument is modified."""
    result = dict(base)
    result.update(override)
    return result


def read_layer(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}: {exc.msg} (line {exc.lineno})") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: the top level must be an object")
    return data


def load_layers(paths: list[Path], defaults: dict[str, Any] | None = None) -> dict[str, Any]:
    config = dict(defaults or {})
    for path in paths:
        if path.exists():
            config = merge(config, read_layer(path))
    return config


def get(config: dict[str, Any], dotted: str, default: Any = None) -> Any:
    """get(config, "db.port") walks nested sections."""
    node: Any = config
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return default
        node = node[part]
    return node
