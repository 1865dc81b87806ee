"""The core never imports Textual: proven in a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys

CORE_MODULES = [
    "agent.cli",
    "agent.events",
    "agent.settings.config",
    "agent.approval",
    "agent.llm.base",
    "sandbox.base",
]


def test_core_modules_do_not_import_textual() -> None:
    code = (
        "import importlib, sys\n"
        f"for m in {CORE_MODULES!r}: importlib.import_module(m)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('textual', 'tui', 'themes')]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
