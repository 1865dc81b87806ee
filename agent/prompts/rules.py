"""Project rules: what people already write for coding agents, read into the stable prefix.

AGENTS.md (the shared convention), KILN.md, and CLAUDE.md at the repository's root, in
that order. They are read once when the session starts, so the prompt prefix stays the
same for the whole session; a file too long is cut with a note, never silently.
"""

from __future__ import annotations

from pathlib import Path

RULE_FILES = ("AGENTS.md", "KILN.md", "CLAUDE.md")
MAX_CHARS = 12_000  # per file: rules are guidance, not a second repository


def project_rules(repo: Path) -> str:
    """The rule files' text under one heading each, or "" when there are none."""
    parts = []
    for name in RULE_FILES:
        path = repo / name
        if not path.is_file() or path.is_symlink():  # a link could lead out of the repository
            continue
        try:
            text = path.read_text(encoding="utf-8", errors="replace").strip()
        except OSError:
            continue
        if not text:
            continue
        if len(text) > MAX_CHARS:
            text = text[:MAX_CHARS] + f"\n[... {name} is cut here: {len(text)} characters in all]"
        parts.append(f"## Project rules from {name}\n\n{text}")
    return "\n\n".join(parts)
