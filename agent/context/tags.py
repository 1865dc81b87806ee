"""Definitions and references of one source file, from tree-sitter.

Each language's parser and query are built once per process (`_compiled`): compiling a
query costs ~3 ms, which Aider pays for every file and which made its tag pass ~4x slower.
Definitions and references are one query, matched in one pass over the tree: compiling the
two apart cost ~1.5x as much, and walking each tree twice ~1.5x as long.
Files that are binary, bigger than `MAX_FILE_BYTES` or not UTF-8 give no tags; nothing
a repository holds makes this raise.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from tree_sitter import Node, Parser, Query, QueryCursor

from agent import grammars
from agent.context.queries import BY_SUFFIX, LanguageQueries

MAX_FILE_BYTES = 1024 * 1024
MAX_SIGNATURE_CHARS = 100


class Tag(NamedTuple):
    file: str
    name: str
    kind: str  # "def" or "ref"
    line: int  # 1-based
    end_line: int = 0  # definitions only
    def_kind: str = ""  # definitions only: "class", "function" or "method"


# What the index keeps per file, as plain tuples and dicts so one marshal blob holds them:
# definitions as (name, def_kind, line, end_line, signature line) and references as
# name -> how often the file uses it (the graph needs counts, not lines); a name used
# through an object (`x.name`, which may mean a method) is kept as ".name".
Definition = tuple[str, str, int, int, str]
FileRecord = tuple[tuple[Definition, ...], dict[str, int]]


class _Compiled(NamedTuple):
    parser: Parser
    query: Query  # the definitions' patterns, then the references'


@functools.cache
def _compiled(queries: LanguageQueries) -> _Compiled:
    # The grammar is loaded with the first file parsed: a run whose tags are all in the
    # cache never needs it.
    language = grammars.language(queries.grammar)
    return _Compiled(Parser(language), Query(language, queries.definitions + queries.references))


def language_of(path: str) -> LanguageQueries | None:
    dot = path.rfind(".")
    return BY_SUFFIX.get(path[dot:].lower()) if dot > path.rfind("/") else None


def is_taggable(path: str) -> bool:
    return language_of(path) is not None


def _text_of(data: bytes) -> str | None:
    if len(data) > MAX_FILE_BYTES or b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _kind_in_context(node: Node, kind: str, classes: set[int], functions: set[int]) -> str:
    """A function whose nearest enclosing definition is a class (or an impl) is a method."""
    if kind != "function":
        return kind
    parent = node.parent
    while parent is not None:
        if parent.id in functions:
            return "function"
        if parent.id in classes:
            return "method"
        parent = parent.parent
    return "function"


def _scan(path: str, data: bytes) -> tuple[list[Definition], list[tuple[str, int, bool]]] | None:
    queries = language_of(path)
    text = _text_of(data) if queries else None
    if queries is None or text is None:
        return None
    compiled = _compiled(queries)
    tree = compiled.parser.parse(data)
    lines = text.split("\n")  # tree-sitter counts rows by "\n" only, unlike splitlines()
    found: list[tuple[Node, str, Node]] = []
    classes: set[int] = set()
    functions: set[int] = set()
    references: list[tuple[str, int, bool]] = []
    for _, captures in QueryCursor(compiled.query).matches(tree.root_node):
        if "scope" in captures:
            classes.update(node.id for node in captures["scope"])
            continue
        for capture, nodes in captures.items():
            if capture.startswith("def.") and "name" in captures:
                kind = capture[4:]
                found.append((nodes[0], kind, captures["name"][0]))
                (classes if kind == "class" else functions).add(nodes[0].id)
            elif capture in ("ref", "ref.member"):
                member = capture == "ref.member"
                references.extend(
                    (node.text.decode("utf-8", "replace"), node.start_point[0] + 1, member)
                    for node in nodes
                    if node.text
                )
    definitions: list[Definition] = []
    seen: set[tuple[str, int]] = set()
    for node, kind, name_node in found:
        name = name_node.text.decode("utf-8", "replace") if name_node.text else ""
        line = node.start_point[0] + 1
        if not name or (name, line) in seen:
            continue
        seen.add((name, line))
        signature_row = name_node.start_point[0]
        signature = lines[signature_row].rstrip()[:MAX_SIGNATURE_CHARS].expandtabs(4)
        final_kind = _kind_in_context(node, kind, classes, functions)
        definitions.append((name, final_kind, line, node.end_point[0] + 1, signature))
    definitions.sort(key=lambda d: (d[2], d[0]))
    return definitions, references


def extract_tags(path: str, data: bytes) -> list[Tag]:
    """Every definition and reference in `data` (the bytes of `path`), in line order."""
    scanned = _scan(path, data)
    if scanned is None:
        return []
    definitions, references = scanned
    tags = [Tag(path, name, "def", line, end, kind) for name, kind, line, end, _ in definitions]
    tags += [Tag(path, name, "ref", line) for name, line, _ in references]
    return sorted(tags, key=lambda t: (t.line, t.kind, t.name))


def file_record(path: str, data: bytes) -> FileRecord:
    """What the index keeps of one file; empty for files that give no tags."""
    scanned = _scan(path, data)
    if scanned is None:
        return (), {}
    definitions, references = scanned
    counts: dict[str, int] = {}
    for name, _, member in references:
        key = f".{name}" if member else name
        counts[key] = counts.get(key, 0) + 1
    return tuple(definitions), counts
