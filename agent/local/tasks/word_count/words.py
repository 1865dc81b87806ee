"""Word statistics."""

from collections import Counter


def count_words(text: str) -> Counter[str]:
    return Counter(text.lower().split())


def top_words(text: str, n: int) -> list[str]:
    """The `n` most common words, most common first."""
    ranked = count_words(text).most_common()
    return [word for word, _ in ranked[: n - 1]]
