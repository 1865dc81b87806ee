"""Turning `kiln` / `kiln chat` arguments into settings, a mode and a resume id."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent.approval import Mode, parse_mode
from agent.errors import UsageError
from agent.settings.config import Settings, load_settings
from agent.settings.repo import find_repo


@dataclass(frozen=True)
class Launch:
    settings: Settings
    repo: Path
    mode: Mode
    resume: str | None


def launch_from_args(args: argparse.Namespace) -> Launch:
    repo = find_repo(getattr(args, "repo", ".") or ".")
    overrides: dict[str, Any] = {}
    for flag, key in (
        ("base_url", "models.main.base_url"),
        ("model", "models.main.model"),
        ("provider", "models.main.provider"),
        ("effort", "models.main.effort"),
        ("backend", "sandbox.backend"),
    ):
        value = getattr(args, flag, None)
        if value:
            overrides[key] = value
    settings = load_settings(repo, overrides)
    wanted = getattr(args, "mode", None) or settings.ui.mode
    mode = parse_mode(wanted)
    if mode is None:
        raise UsageError(
            f"`{wanted}` is not an interactive mode; use plan, ask, auto-edit or full-auto."
        )
    return Launch(settings, repo, mode, getattr(args, "resume", None))
