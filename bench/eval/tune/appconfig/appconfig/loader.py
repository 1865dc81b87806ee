"""The merged settings and where each value came from (for `app config show`)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from appconfig.defaults import defaults
from appconfig.sources import from_env, from_file


def load(
    path: Path | None = None, environ: Mapping[str, str] | None = None
) -> tuple[dict[str, object], dict[str, str]]:
    """(settings, origin of each): later sources win over earlier ones."""
    settings = defaults()
    origin = {name: "default" for name in settings}
    layers = [
        ("file", from_file(path) if path else {}),
        ("env", from_env(os.environ if environ is None else environ)),
    ]
    for label, values in layers:
        for name, value in values.items():
            settings[name] = value
            origin[name] = label
    return settings, origin
