"""Which servers a session has: kiln's defaults (sandbox/language_servers.py) with the
person's `[lsp.NAME]` tables laid over them, and the LSP language of a file."""

from __future__ import annotations

import dataclasses
import posixpath

from agent.settings.config import LspServer
from sandbox.language_servers import DEFAULTS, LanguageServer

# LSP's language identifiers by file ending; another ending's is the ending itself ("zig").
LANGUAGE_IDS = {
    ".py": "python",
    ".pyi": "python",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "typescriptreact",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascriptreact",
    ".go": "go",
    ".rs": "rust",
}


def language_id(path: str) -> str:
    ending = posixpath.splitext(path)[1].lower()
    return LANGUAGE_IDS.get(ending, ending.lstrip(".") or "plaintext")


def session_servers(configured: dict[str, LspServer]) -> tuple[LanguageServer, ...]:
    """The person's own servers first (a file goes to the first that serves its ending),
    then kiln's, each changed by its table (a command, endings) or left out (`disabled`)."""
    defaults = {d.name: d for d in DEFAULTS}
    own = [
        LanguageServer(name, table.command, _endings(table.extensions))
        for name, table in configured.items()
        if name not in defaults and not table.disabled
    ]
    ours = []
    for default in DEFAULTS:
        table = configured.get(default.name, LspServer())
        if not table.disabled:
            ours.append(
                dataclasses.replace(
                    default,
                    command=table.command or default.command,
                    extensions=_endings(table.extensions) or default.extensions,
                )
            )
    return (*own, *ours)


def _endings(extensions: tuple[str, ...]) -> tuple[str, ...]:
    """`py` and `.py` alike, in lower case."""
    return tuple("." + e.lower().lstrip(".") for e in extensions if e.strip("."))
