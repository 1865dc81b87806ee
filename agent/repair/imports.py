"""Imports a rewritten Python function needs: names from the standard library.

Asked to rewrite one function, a small model fixes `ROUND_HALF_EVEN` to `ROUND_HALF_UP`
and, rightly, writes only the function, so the module raises NameError. The name it
meant is in a standard-library module the file already imports from; kiln adds it to
that `from M import ...` line, as an editor's quick fix would.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import sys

NEVER_IMPORTED = {"antigravity", "this"}  # importing them has effects


def stdlib_imports_added(source: str) -> tuple[str, str] | None:
    """(the import line as it is, as it should be), or None when nothing is missing."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    missing = _used(tree) - _bound(tree) - set(dir(builtins))
    lines = source.split("\n")
    for node in tree.body:
        if not _plain_stdlib_from(node, lines):
            continue
        assert isinstance(node, ast.ImportFrom) and node.module
        module = importlib.import_module(node.module)
        wanted = sorted(name for name in missing if hasattr(module, name))
        if wanted:
            old = lines[node.lineno - 1]
            names = [f"{a.name} as {a.asname}" if a.asname else a.name for a in node.names]
            indent = old[: len(old) - len(old.lstrip())]
            return old, f"{indent}from {node.module} import {', '.join(names + wanted)}"
    return None


def _plain_stdlib_from(node: ast.stmt, lines: list[str]) -> bool:
    """`from M import a, b` on one line, without parentheses, M in the standard library."""
    if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
        return False
    top = node.module.split(".")[0]
    return (
        top in sys.stdlib_module_names
        and top not in NEVER_IMPORTED
        and node.lineno == node.end_lineno
        and "(" not in lines[node.lineno - 1]
        and not any(a.name == "*" for a in node.names)
    )


def _used(tree: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _bound(tree: ast.AST) -> set[str]:
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
            bound.add(node.name)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            bound.update(node.names)
    return bound
