"""The settings of one command: its flags over the files, the one mapping from a flag to
the dotted key it sets (`kiln run`, `kiln review`, a `kiln batch` task)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from agent.settings.config import Settings, load_settings


def settings_for(
    args: argparse.Namespace, repo: Path, extra: dict[str, Any] | None = None
) -> Settings:
    """The settings of a run: its flags over the files; `extra` adds dotted keys of its own
    (a batch line's image and setup)."""
    flags = {
        "models.main.base_url": getattr(args, "base_url", None),
        "models.main.model": getattr(args, "model", None),
        "models.main.provider": getattr(args, "provider", None),
        "models.main.effort": getattr(args, "effort", None),
        "tests.command": getattr(args, "test_command", None),
        "limits.max_steps": getattr(args, "max_steps", None),
        "limits.budget_usd": getattr(args, "budget_usd", None),
        "limits.timeout_s": getattr(args, "timeout", None),
        "sandbox.backend": getattr(args, "backend", None),
        "git.commit": True if getattr(args, "commit", False) else None,
        **(extra or {}),
    }
    return load_settings(repo, {k: v for k, v in flags.items() if v is not None})
