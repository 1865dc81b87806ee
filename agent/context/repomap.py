"""The repo map: the best-ranked definitions of a repository, cut to a token budget.

Each chosen file is shown once, its chosen definitions under it in line order as the
line number and the definition's first line (its signature). The number of definitions
shown is found by binary search: the largest count whose rendering fits the budget.

`prompt_map()` is what a session calls for the stable prompt prefix: the same repository
state, focus and budget give byte-identical text.
"""

from __future__ import annotations

import hashlib
import marshal
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from agent.context.graph import rank_definitions
from agent.context.index import RepoIndex
from agent.context.tags import FileRecord
from agent.present import estimate_tokens

DEFAULT_TOKENS = 1500
REMEMBERED_MAPS = 16


def render(records: Mapping[str, FileRecord], chosen: Sequence[tuple[str, int]]) -> str:
    """`chosen` (file, line) pairs, best first; files in the order of their best entry."""
    by_file: dict[str, list[int]] = {}
    for path, line in chosen:
        by_file.setdefault(path, []).append(line)
    blocks = []
    for path, lines in by_file.items():
        signatures = {d[2]: d[4] for d in records[path][0]}
        body = "\n".join(f"{line:>5} {signatures[line]}" for line in sorted(set(lines)))
        blocks.append(f"{path}:\n{body}")
    return "\n".join(blocks) + "\n" if blocks else ""


def fit_to_budget(
    records: Mapping[str, FileRecord], ranked: Sequence[tuple[str, int]], tokens: int
) -> str:
    """The longest prefix of `ranked` whose rendering is within `tokens`."""
    low, high, best = 1, min(len(ranked), max(tokens, 0)), ""
    while low <= high:
        middle = (low + high) // 2
        text = render(records, ranked[:middle])
        if estimate_tokens(text) <= tokens:
            best, low = text, middle + 1
        else:
            high = middle - 1
    return best


def split_focus(
    records: Mapping[str, FileRecord], focus: Iterable[str]
) -> tuple[list[str], list[str]]:
    """Focus entries that name a file of the repository, and the rest (taken as names)."""
    files, names = [], []
    for entry in focus:
        cleaned = entry.strip().removeprefix("./")
        if cleaned in records:
            files.append(cleaned)
        elif cleaned:
            names.append(cleaned)
    return files, names


def map_of_records(
    records: Mapping[str, FileRecord], focus: Iterable[str] = (), tokens: int = DEFAULT_TOKENS
) -> str:
    focus_files, focus_names = split_focus(records, focus)
    ranked = rank_definitions(records, focus_files, focus_names)
    return fit_to_budget(records, [(path, line) for _, path, line, _ in ranked], tokens)


def map_of_index(index: RepoIndex, focus: Iterable[str] = (), tokens: int = DEFAULT_TOKENS) -> str:
    """The map of an index as it stands (with any sandbox changes laid over it).

    Maps are remembered beside the tag cache by (every file's state, focus, budget): with
    nothing changed the ranking (~0.2 s on 3k files) is not redone, and the text is the
    same bytes by construction.
    """
    focus = sorted(set(focus))
    if index.cache_file is None:
        return map_of_records(index.records(), focus, tokens)
    memo_file = index.cache_file.with_suffix(".maps")
    key = hashlib.sha256(repr((index.state_key(), focus, tokens)).encode()).hexdigest()
    try:
        memo = marshal.loads(memo_file.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        memo = {}
    if not isinstance(memo, dict):
        memo = {}
    text = memo.get(key)
    if isinstance(text, str):
        return text
    text = map_of_records(index.records(), focus, tokens)
    memo = dict(list(memo.items())[-(REMEMBERED_MAPS - 1) :])
    memo[key] = text
    partial = memo_file.with_suffix(f".{os.getpid()}.partial")
    try:
        partial.write_bytes(marshal.dumps(memo))
        os.replace(partial, memo_file)
    except OSError:
        partial.unlink(missing_ok=True)
    return text


def prompt_map(repo: Path, focus: Sequence[str] = (), tokens: int = DEFAULT_TOKENS) -> str:
    """The small map for the stable prompt prefix; "" when the repository has no code.

    `focus` holds repository paths (files mentioned or changed) and names (from failing
    tests); both only pull the ranking towards them. Uses and refreshes the on-disk cache.
    """
    index = RepoIndex.for_repository(repo)
    index.refresh()
    return map_of_index(index, focus, tokens)
