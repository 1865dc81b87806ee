"""Settings: built-in defaults, overridden by an INI file.

Every value takes the type of its default, so the rest of the code can rely on
`settings["server"]["port"]` being an int.
"""

from __future__ import annotations

import configparser
import copy
from pathlib import Path
from typing import Any

DEFAULTS: dict[str, dict[str, Any]] = {
    "server": {"host": "127.0.0.1", "port": 8000, "debug": False, "max_body_kb": 1024},
    "deploy": {"target": "staging", "retries": 3, "timeout": 30.0},
}

_BOOLEANS = configparser.ConfigParser.BOOLEAN_STATES


class SettingsError(Exception):
    pass


def coerce(raw: str, default: Any, where: str) -> Any:
    """Convert the text `raw` to the type of `default`; `where` names the source in errors."""
    text = raw.strip()
    try:
        if isinstance(default, bool):
            return _BOOLEANS[text.lower()]
        if isinstance(default, int):
            return int(text)
        if isinstance(default, float):
            return float(text)
    except (KeyError, ValueError):
        raise SettingsError(f"{where}: {raw!r} is not a valid {type(default).__name__}") from None
    return text


def load_settings(path: Path | None = None) -> dict[str, dict[str, Any]]:
    settings = copy.deepcopy(DEFAULTS)
    if path is None or not path.exists():
        return settings
    parser = configparser.ConfigParser()
    parser.read(path, encoding="utf-8")
    for section in parser.sections():
        if section not in settings:
            raise SettingsError(f"{path}: unknown section [{section}]")
        for key, raw in parser.items(section):
            if key not in settings[section]:
                raise SettingsError(f"{path}: unknown setting {section}.{key}")
            settings[section][key] = coerce(raw, DEFAULTS[section][key], f"{path} [{section}] {key}")
    return settings
