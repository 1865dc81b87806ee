"""From failing tests to the code they exercise: retrieval by definition, not by file name.

A test imports `quadruple` from a package whose `__init__.py` only re-exports it; the
traceback of an assertion names only the test file. Following file names then shows the
model the package's `__init__.py` and never the buggy code. Instead: the names the failing
tests use are looked up in the tag index (the repo map's), which finds where each is
*defined*, whatever re-exports it; then the names those definitions use, one call further
(the bug is often in what the tested function calls).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from agent.context.tags import FileRecord, extract_tags

MAX_DEFINERS = 3  # a name defined in more files than this is too generic to follow
MAX_FOUND = 8

Read = Callable[[str], bytes | None]


@dataclass(frozen=True)
class Found:
    path: str
    name: str
    line: int
    end_line: int
    depth: int  # 0: used by a failing test; 1: used by such a definition
    kind: str = ""  # "class", "function" or "method"


def failing_test_names(failing: tuple[str, ...] | list[str]) -> set[str]:
    """`test_x (tests.test_a.T.test_x)`, `tests/test_a.py::T::test_x`, `T.test_x`: the
    function names, which is what the test file defines."""
    names: set[str] = set()
    for entry in failing:
        for word in re.findall(r"[A-Za-z_]\w*", entry):
            if word.startswith(("test", "Test")):
                names.add(word)
    return names


def definitions_for_tests(
    records: dict[str, FileRecord],
    test_files: dict[str, bytes],
    failing: tuple[str, ...] | list[str],
    read: Read,
    is_test: Callable[[str], bool],
) -> list[Found]:
    """Definitions outside the tests that the failing tests use, then what those use."""
    definers: dict[str, list[tuple[str, int, int, str]]] = {}
    for path, (definitions, _) in records.items():
        if is_test(path):
            continue
        for name, kind, line, end, _sig in definitions:
            definers.setdefault(name, []).append((path, line, end, kind))
    wanted = failing_test_names(failing)
    found: list[Found] = []
    seen: set[tuple[str, int]] = set()

    def resolve(names: list[str], depth: int) -> None:
        for name in names:
            places = definers.get(name, [])
            if not places or len(places) > MAX_DEFINERS:
                continue
            for path, line, end, kind in places:
                if (path, line) not in seen and len(found) < MAX_FOUND:
                    seen.add((path, line))
                    found.append(Found(path, name, line, end, depth, kind))

    for path, data in test_files.items():
        resolve(_names_used(path, data, wanted), 0)
    for first in [f for f in found if f.depth == 0]:
        source = read(first.path)
        if source is not None:
            resolve(_names_used(first.path, source, within=(first.line, first.end_line)), 1)
    return found


def _names_used(
    path: str,
    data: bytes,
    test_names: set[str] | None = None,
    within: tuple[int, int] | None = None,
) -> list[str]:
    """Names referenced in `path`: inside the failing tests (or the whole file if none of
    them is found there), or inside the line range `within`. In first-use order."""
    tags = extract_tags(path, data)
    ranges = [within] if within else []
    if test_names:
        ranges = [(t.line, t.end_line) for t in tags if t.kind == "def" and t.name in test_names]
        # A failing test method's class may hold the helpers and setUp it uses.
    names: list[str] = []
    for tag in tags:
        if tag.kind != "ref":
            continue
        if ranges and not any(start <= tag.line <= end for start, end in ranges):
            continue
        if tag.name not in names:
            names.append(tag.name)
    return names
