"""Textual themes shipped with kiln, user themes from the XDG config dir, the remembered choice.

A user theme is a TOML file in `agent.settings.paths.user_themes_dir()` whose keys are Textual
`Theme` fields (`name`, `primary`, `background`, `dark`, a `[variables]` table ...).
A broken file is reported in one sentence and skipped, never fatal.
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from pathlib import Path

from textual.theme import Theme

from agent.settings import paths

DEFAULT_THEME = "kiln-dark"

KILN_THEMES: dict[str, Theme] = {
    "kiln-dark": Theme(
        name="kiln-dark",
        primary="#E0803A",  # the colour of a kiln's glow
        secondary="#8FA6C8",
        accent="#F2B866",
        warning="#E8B339",
        error="#E05A5A",
        success="#6CC07A",
        foreground="#E4DED6",
        background="#1B1918",
        surface="#24211F",
        panel="#2E2A27",
        dark=True,
    ),
    "kiln-light": Theme(
        name="kiln-light",
        primary="#B4561C",
        secondary="#3F5F8F",
        accent="#9A6412",
        warning="#B07A00",
        error="#B3261E",
        success="#2E7D32",
        foreground="#2A2520",
        background="#FAF7F2",
        surface="#F0EBE3",
        panel="#E6DFD4",
        dark=False,
    ),
    "kiln-high-contrast": Theme(
        name="kiln-high-contrast",
        primary="#FFD700",
        secondary="#00FFFF",
        accent="#FF00FF",
        warning="#FFFF00",
        error="#FF3030",
        success="#00FF00",
        foreground="#FFFFFF",
        background="#000000",
        surface="#000000",
        panel="#1A1A1A",
        dark=True,
        luminosity_spread=0.3,
        text_alpha=1.0,
    ),
}

_THEME_FIELDS = {f.name for f in dataclasses.fields(Theme)}


def load_user_themes(directory: Path | None = None) -> tuple[list[Theme], list[str]]:
    """Themes from `*.toml` files, plus one sentence per file that could not be used."""
    directory = directory or paths.user_themes_dir()
    themes: list[Theme] = []
    problems: list[str] = []
    if not directory.is_dir():
        return themes, problems
    for path in sorted(directory.glob("*.toml")):
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            unknown = sorted(set(data) - _THEME_FIELDS)
            if unknown:
                raise ValueError(f"unknown keys {', '.join(unknown)}")
            data.setdefault("name", path.stem)
            if "primary" not in data:
                raise ValueError("it needs at least `primary`")
            themes.append(Theme(**data))
        except (OSError, ValueError, TypeError, tomllib.TOMLDecodeError) as exc:
            problems.append(f"Theme file {path} was skipped ({exc}); fix it or remove it.")
    return themes, problems


def _choice_file() -> Path:
    return paths.config_dir() / "tui.toml"


def remembered_theme() -> str | None:
    """The theme last chosen with /theme, if any."""
    try:
        data = tomllib.loads(_choice_file().read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return None
    name = data.get("theme")
    return name if isinstance(name, str) else None


def remember_theme(name: str) -> None:
    path = _choice_file()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    path.write_text(f"theme = {json.dumps(name)}\n", encoding="utf-8")


def initial_theme(configured: str, source: str) -> str:
    """An explicit env/flag choice wins; otherwise the last /theme choice; otherwise config."""
    if source.startswith(("env", "flag")):
        return configured
    return remembered_theme() or configured or DEFAULT_THEME
