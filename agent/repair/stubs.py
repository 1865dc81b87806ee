"""The repository's stub: a small Python module whose functions do nothing yet.

A task that hands over a stub (functions whose body is `pass`, `...` or `raise
NotImplementedError`) and tests that fail against it is not a bug to localise: there is
nothing to mutate, so it is implemented whole (implement.py).
"""

from __future__ import annotations

import ast
import posixpath
import re

from agent.prompts.briefing import is_test_file, read_texts
from agent.run.core import Run
from sandbox.frozen import frozen

MAX_STUB_BYTES = 20_000  # a module this size is a stub to fill in, not a project to rewrite
MAX_TESTS_SHOWN = 2


@frozen
class Stub:
    path: str
    text: str
    names: tuple[str, ...]  # the stubbed functions and methods
    tests: dict[str, str]  # the test files that import it
    documents: str  # the task's documents the task does not quote


async def find_stub(run: Run, documents: str) -> Stub | None:
    """The repository's stub module that failing tests import (the smallest such stub
    first), with those tests and the task's documents; None when there is none."""
    listing = await run.sandbox.exec("git ls-files", timeout=30)
    files = listing.output.split("\n") if listing.ok else []
    code = [p for p in files if p.endswith(".py") and not is_test_file(p)]
    tests = [p for p in files if p.endswith(".py") and is_test_file(p)]
    texts = await read_texts(run.sandbox, code + tests)
    stubs = [
        (len(texts[p]), p)
        for p in code
        if 0 < len(texts[p].encode()) <= MAX_STUB_BYTES and stubbed_names(texts[p])
    ]
    for _, path in sorted(stubs):
        importing = {t: texts[t] for t in tests if _imports(texts[t], path)}
        if importing:
            shown = dict(list(importing.items())[:MAX_TESTS_SHOWN])
            return Stub(path, texts[path], tuple(stubbed_names(texts[path])), shown, documents)
    return None


def _imports(test_text: str, path: str) -> bool:
    module = posixpath.splitext(path)[0].replace("/", ".")
    leaf = module.rsplit(".", 1)[-1]
    pattern = (
        rf"^\s*(from\s+[\w.]*\b{re.escape(leaf)}\s+import|import\s+[\w.]*\b{re.escape(leaf)}\b)"
    )
    return re.search(pattern, test_text, re.M) is not None


def stubbed_names(source: str) -> list[str]:
    """The functions and methods of `source` that are stubs, in order; [] when it has none
    (or is not Python)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    return [
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _trivial(node.body)
    ]


def _trivial(body: list[ast.stmt]) -> bool:
    """A body that does nothing yet: `pass`, `...`, a docstring, `raise NotImplementedError`."""
    for statement in body:
        if isinstance(statement, ast.Pass):
            continue
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
            continue  # a docstring or `...`
        if isinstance(statement, ast.Raise):
            raised = statement.exc
            name = raised.func if isinstance(raised, ast.Call) else raised
            if isinstance(name, ast.Name) and name.id == "NotImplementedError":
                continue
        return False
    return True
