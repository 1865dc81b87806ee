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

from agent.context.tags import FileRecord, Tag, extract_tags
from sandbox.frozen import frozen

MAX_DEFINERS = 3  # a name defined in more files than this is too generic to follow
MAX_FOUND = 8

Read = Callable[[str], bytes | None]


@frozen
class Found:
    path: str
    name: str
    line: int
    end_line: int
    depth: int  # 0: used by a failing test; 1: used by such a definition
    kind: str = ""  # "class", "function" or "method"
    parent: str = ""  # depth 1: the name of the definition that uses this one


def failing_test_names(failing: tuple[str, ...] | list[str]) -> set[str]:
    """`test_x (tests.test_a.T.test_x)`, `tests/test_a.py::T::test_x`, `T.test_x`: the
    function names, which is what the test file defines."""
    names: set[str] = set()
    for entry in failing:
        for word in re.findall(r"[A-Za-z_]\w*", entry):
            if word.startswith(("test", "Test")):
                names.add(word)
    return names


def failing_test_classes(failing: tuple[str, ...] | list[str]) -> dict[str, set[str]]:
    """For each failing test method, the classes it failed in: `tests.test_a.T.test_x`
    and `tests/test_a.py::T::test_x` give {"test_x": {"T"}}. Suites often repeat a name
    (`test_basic` in each class); only the failing class's one counts."""
    owners: dict[str, set[str]] = {}
    for entry in failing:
        for owner, name in re.findall(r"([A-Z]\w*)(?:\.|::)(test\w*)", entry):
            owners.setdefault(name, set()).add(owner)
    return owners


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
        if is_test(path) or path.endswith(".pyi"):  # a stub only repeats the signatures
            continue
        for name, kind, line, end, _sig in definitions:
            definers.setdefault(name, []).append((path, line, end, kind))
    wanted = failing_test_names(failing)
    found: list[Found] = []
    seen: set[tuple[str, int]] = set()

    def resolve(names: list[str], depth: int, parent: str = "") -> None:
        for name in names:
            places = definers.get(name, [])
            if not places or len(places) > MAX_DEFINERS:
                continue
            for path, line, end, kind in places:
                if (path, line) not in seen and len(found) < MAX_FOUND:
                    seen.add((path, line))
                    found.append(Found(path, name, line, end, depth, kind, parent))

    for path, data in test_files.items():
        resolve(_names_used(path, data, wanted, titles=failing), 0)
    # Functions before classes: a class's lines hold all its methods' calls, and what a
    # tested method calls should be known as called by that method.
    for first in sorted([f for f in found if f.depth == 0], key=lambda f: f.kind == "class"):
        source = read(first.path)
        if source is not None:
            within = (first.line, first.end_line)
            resolve(_names_used(first.path, source, within=within), 1, first.name)
    return found


def _names_used(
    path: str,
    data: bytes,
    test_names: set[str] | None = None,
    within: tuple[int, int] | None = None,
    titles: tuple[str, ...] | list[str] = (),
) -> list[str]:
    """Names referenced in `path`: inside the failing tests (or the whole file if none of
    them is found there), or inside the line range `within`. In first-use order."""
    tags = extract_tags(path, data)
    ranges = [within] if within else []
    if test_names or titles:
        ranges = _failing_spans(tags, test_names or set(), failing_test_classes(titles))
        # A failing test method's class may hold the helpers and setUp it uses.
        ranges = ranges or _titled_spans(data.decode("utf-8", "replace"), titles)
    names: list[str] = []
    for tag in tags:
        if tag.kind != "ref":
            continue
        if ranges and not any(start <= tag.line <= end for start, end in ranges):
            continue
        if tag.name not in names:
            names.append(tag.name)
    return names


def _failing_spans(
    tags: list[Tag], names: set[str], owners: dict[str, set[str]]
) -> list[tuple[int, int]]:
    """The lines of the test functions named `names`, in their failing classes only when
    this file defines those classes."""
    classes = [t for t in tags if t.kind == "def" and t.def_kind == "class"]
    spans: list[tuple[int, int]] = []
    for tag in tags:
        if tag.kind != "def" or tag.name not in names:
            continue
        mine = [c for c in classes if c.name in owners.get(tag.name, ())]
        if mine and not any(c.line <= tag.line <= c.end_line for c in mine):
            continue
        spans.append((tag.line, tag.end_line))
    return spans


_TEST_CALL = re.compile(r"^\s*(?:test|it|describe)(?:\.\w+)?\(")


def _titled_spans(source: str, titles: tuple[str, ...] | list[str]) -> list[tuple[int, int]]:
    """The lines of tests named by a string (`test('adds up', () => ...)` in node, jest,
    mocha): from the line holding a failing title to the line before the next test."""
    lines = source.split("\n")
    starts = [i for i, line in enumerate(lines) if _TEST_CALL.match(line)]
    spans = []
    for title in titles:
        quoted = [f"'{title}'", f'"{title}"', f"`{title}`"]
        for start in starts:
            if any(q in lines[start] for q in quoted):
                after = [s for s in starts if s > start]
                end = after[0] if after else len(lines)
                spans.append((start + 1, end))
    return spans
