"""Where settings come from: an INI-style file and the process environment."""

from __future__ import annotations

import configparser
from collections.abc import Mapping
from pathlib import Path

from appconfig.defaults import SETTINGS, parse

ENV_PREFIX = "APP_"


def from_file(path: Path) -> dict[str, object]:
    if not path.exists():
        return {}
    parser = configparser.ConfigParser()
    parser.read(path, encoding="utf-8")
    section = parser["app"] if parser.has_section("app") else {}
    return {name: parse(name, value) for name, value in section.items() if name in SETTINGS}


def from_env(environ: Mapping[str, str]) -> dict[str, object]:
    """APP_PORT=9000 -> {"port": 9000}; unknown APP_ names are ignored."""
    found: dict[str, object] = {}
    for key, value in environ.items():
        if not key.startswith(ENV_PREFIX):
            continue
        name = key[len(ENV_PREFIX) :]
        if name in SETTINGS:
            found[name] = parse(name, value)
    return found
