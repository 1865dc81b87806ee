"""Every docs page kiln's own words point at exists: `kiln --help` names the docs folder,
and a sentence that has a page (no Docker engine, no model server, a bad setting, an
untrusted repository) names its path, which a renamed page would leave pointing nowhere."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAMED = re.compile(r"(?<![.\w/])docs/[\w/-]+\.md")


def test_kiln_help_names_the_docs_folder() -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "agent.cli", "--help"], capture_output=True, text=True, cwd=ROOT
    )
    assert shown.returncode == 0, shown.stderr
    assert "docs/index.md" in " ".join(shown.stdout.split())


def test_every_page_a_sentence_names_exists() -> None:
    named: dict[str, list[str]] = {}
    for package in ("agent", "sandbox", "tui"):
        for source in (ROOT / package).rglob("*.py"):
            for page in NAMED.findall(source.read_text(encoding="utf-8")):
                named.setdefault(page, []).append(str(source.relative_to(ROOT)))
    # The sentences this test is about: the engine, the model server, settings, trust.
    assert {"docs/sandbox.md", "docs/configuration.md", "docs/models/index.md"} <= set(named)
    missing = {page: where for page, where in named.items() if not (ROOT / page).is_file()}
    assert missing == {}
