"""XDG locations for kiln's config, data, state and cache (created 0o700 on demand)."""

from __future__ import annotations

import os
from pathlib import Path

# Each folder's variable, and where it is when the variable is not set (under the home).
_CONFIG = ("XDG_CONFIG_HOME", ".config")
_DATA = ("XDG_DATA_HOME", ".local/share")
_STATE = ("XDG_STATE_HOME", ".local/state")
_CACHE = ("XDG_CACHE_HOME", ".cache")


def _xdg(var: str, fallback: str) -> Path:
    value = os.environ.get(var)
    base = Path(value) if value else Path.home() / fallback
    return base / "kiln"


def _ensure(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


def config_dir() -> Path:
    return _xdg(*_CONFIG)


def data_dir() -> Path:
    return _ensure(_xdg(*_DATA))


def state_dir() -> Path:
    return _ensure(_xdg(*_STATE))


def cache_dir() -> Path:
    return _ensure(_xdg(*_CACHE))


def own_dirs() -> list[Path]:
    """kiln's config, data and state folders, as they would be (none is made here): what
    steers it or runs on the host. Not the cache, which holds only what kiln can rebuild."""
    return [_xdg(*where) for where in (_CONFIG, _DATA, _STATE)]


def local_state_dir() -> Path:
    """The embedded model's logs, lock and server record (not made here)."""
    return state_dir() / "local"


def local_server_record() -> Path:
    """Where the embedded model's running server is recorded (agent.local.server writes
    it): asking whether it runs needs no import of the local model's package."""
    return local_state_dir() / "server.json"


def user_config_file() -> Path:
    return config_dir() / "config.toml"


def user_themes_dir() -> Path:
    return config_dir() / "themes"


def claude_settings(root: Path) -> Path:
    """Claude Code's settings file under `root`: a repository, or the person's home."""
    return root / ".claude" / "settings.json"
