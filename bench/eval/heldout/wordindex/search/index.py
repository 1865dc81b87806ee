"""An inverted index: word -> {document id -> how many times}, ranked by term frequency."""

from __future__ import annotations

from collections import defaultdict

from search.tokens import normalise, tokens


class Index:
    def __init__(self) -> None:
        self.postings: dict[str, dict[str, int]] = defaultdict(dict)
        self.titles: dict[str, str] = {}

    def add(self, doc_id: str, title: str, text: str) -> None:
        if doc_id in self.titles:
            raise ValueError(f"{doc_id} is already indexed")
        self.titles[doc_id] = title
        for word in tokens(title + " " + text):
            counts = self.postings[word]
            counts[doc_id] = counts.get(doc_id, 0) + 1

    def search(self, query: str) -> list[str]:
        """Documents holding every word of the query, most matches first."""
        words = [normalise(w) for w in tokens(query)]
        if not words:
            return []
        matching = set(self.postings.get(words[0], {}))
        for word in words[1:]:
            matching &= set(self.postings.get(word, {}))
        score = {d: sum(self.postings[w][d] for w in words) for d in matching}
        return sorted(matching, key=lambda d: (-score[d], d))

    def vocabulary(self) -> list[str]:
        return sorted(self.postings)
