"""Syntax errors an edit introduced, found with tree-sitter and reported to the model.

Only errors that were not there before count: a file that was already broken should not
make every later edit look wrong.
"""

from __future__ import annotations

import functools
import posixpath
from typing import Any

LANGUAGE_BY_EXTENSION = {
    ".py": "python",
    ".pyi": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".hpp": "cpp",
    ".java": "java",
    ".rb": "ruby",
    ".php": "php",
    ".sh": "bash",
    ".bash": "bash",
    ".json": "json",
    ".toml": "toml",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".css": "css",
    ".html": "html",
    ".lua": "lua",
    ".kt": "kotlin",
    ".swift": "swift",
    ".cs": "csharp",
    ".scala": "scala",
}
MAX_REPORTED = 3


@functools.cache
def _parser(language: str) -> Any:
    try:
        from agent import grammars

        return grammars.parser(language)
    except Exception:  # a grammar that is missing or fails to load: no check, never a crash
        return None


def language_for(path: str) -> str | None:
    return LANGUAGE_BY_EXTENSION.get(posixpath.splitext(path)[1].lower())


def _error_lines(source: bytes, language: str) -> list[int] | None:
    parser = _parser(language)
    if parser is None:
        return None
    tree = parser.parse(source)
    if not tree.root_node.has_error:
        return []
    lines: list[int] = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            lines.append(node.start_point[0] + 1)
            continue  # one report per broken region
        if node.has_error:
            stack.extend(reversed(node.children))
    return sorted(set(lines))


def error_count(path: str, source: bytes) -> int:
    """How many broken regions tree-sitter finds in `source`; 0 without a grammar."""
    language = language_for(path)
    lines = _error_lines(source, language) if language else None
    return len(lines or [])


def introduced_errors(path: str, before: bytes | None, after: bytes) -> str:
    """A note for the model naming syntax errors present after the edit but not before."""
    language = language_for(path)
    if language is None:
        return ""
    after_lines = _error_lines(after, language)
    if not after_lines:
        return ""
    before_lines = _error_lines(before, language) if before is not None else []
    if before_lines is not None and len(after_lines) <= len(before_lines):
        return ""
    text = after.decode("utf-8", errors="replace").splitlines()
    shown = [
        f"  line {n}: {text[n - 1].strip()[:120] if n <= len(text) else ''}"
        for n in after_lines[:MAX_REPORTED]
    ]
    more = (
        f" (and {len(after_lines) - MAX_REPORTED} more)" if len(after_lines) > MAX_REPORTED else ""
    )
    return (
        f"\nWarning: {path} no longer parses as {language}; this edit introduced a syntax "
        f"error{more}:\n" + "\n".join(shown) + "\nFix it before going on."
    )
