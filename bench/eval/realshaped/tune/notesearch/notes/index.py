"""An inverted index over notes: word -> names of the notes containing it."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

WORD = re.compile(r"\w+")
SUFFIXES = (".md", ".txt")


def words(text: str) -> list[str]:
    return WORD.findall(text)


class Index:
    def __init__(self) -> None:
        self._postings: dict[str, set[str]] = defaultdict(set)
        self._texts: dict[str, str] = {}

    def add(self, name: str, text: str) -> None:
        if name in self._texts:
            self.remove(name)
        self._texts[name] = text
        for word in words(text):
            self._postings[word].add(name)

    def remove(self, name: str) -> None:
        self._texts.pop(name)
        for names in self._postings.values():
            names.discard(name)

    def text(self, name: str) -> str:
        return self._texts[name]

    def __len__(self) -> int:
        return len(self._texts)

    def search(self, query: str) -> list[str]:
        """Names of the notes that contain every word of the query, sorted."""
        terms = words(query)
        if not terms:
            return []
        found = set.intersection(*(self._postings.get(term, set()) for term in terms))
        return sorted(found)


def load_folder(folder: Path) -> Index:
    index = Index()
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix in SUFFIXES:
            index.add(path.relative_to(folder).as_posix(), path.read_text(encoding="utf-8"))
    return index
