"""A command as words the shell would read, and whether a rule's glob could match it.

A word is literal when its text is what the program receives (quotes removed, escapes
read); otherwise (`$X`, `$(...)`, `*.py`, `{a,b}`) its value is known only when the line
runs, and it stands for any text. A rule that could match some value of such a command
cannot be said not to match it: `could_match` answers that, glob against glob.
"""

from __future__ import annotations

import functools
import re

from sandbox.frozen import frozen


@frozen
class Word:
    text: str  # as the program receives it when literal; the source text otherwise
    literal: bool = True


@frozen
class Form:
    """One spelling of a command for rules to match: as written, or with a wrapper, a
    program's folder or git's global options taken off."""

    words: tuple[Word, ...]
    open_tail: bool = False  # more words come from its input (xargs)

    @property
    def text(self) -> str:
        return " ".join(word.text for word in self.words)

    @property
    def shown(self) -> str:
        """Its text for a person, the words its input adds shown as `...`."""
        return self.text + (" ..." if self.open_tail else "")

    @property
    def known(self) -> bool:
        return not self.open_tail and all(word.literal for word in self.words)

    def tokens(self) -> tuple[str | None, ...]:
        """Its characters, with None where any text may stand (an unknown word, the tail)."""
        out: list[str | None] = []
        for i, word in enumerate(self.words):
            if i:
                out.append(" ")
            out.extend(word.text if word.literal else [None])
        if self.open_tail:
            out.append(None)
        return tuple(out)


@frozen
class Command:
    """One command a line would run, by each of its spellings (as written first)."""

    forms: tuple[Form, ...]


def could_match(pattern: str, form: Form) -> bool:
    """Whether the fnmatch `pattern` matches some value of `form` (its unknown parts being
    any text): the two globs have a string in common."""
    return _overlap(_pattern_tokens(pattern), form.tokens())


_STAR = "*"


@functools.lru_cache(maxsize=256)
def _pattern_tokens(pattern: str) -> tuple[str | re.Pattern[str], ...]:
    """fnmatch's syntax as tokens: `*`, or a one-character regex (`?`, a `[...]` class,
    a literal character)."""
    out: list[str | re.Pattern[str]] = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        end = pattern.find("]", i + 2) if char == "[" else -1
        if char == "*":
            if not out or out[-1] != _STAR:
                out.append(_STAR)
        elif char == "?":
            out.append(re.compile(".", re.S))
        elif char == "[" and end != -1:
            body = pattern[i + 1 : end].replace("\\", "\\\\")
            out.append(re.compile("[" + ("^" + body[1:] if body.startswith("!") else body) + "]"))
            i = end
        else:
            out.append(re.compile(re.escape(char), re.S))
        i += 1
    return tuple(out)


def _overlap(pattern: tuple[str | re.Pattern[str], ...], form: tuple[str | None, ...]) -> bool:
    """A walk over (pattern position, form position) pairs: a star on either side may
    stand for nothing or take one more token of the other side."""
    seen: set[tuple[int, int]] = set()
    todo = [(0, 0)]
    while todo:
        i, j = todo.pop()
        if (i, j) in seen:
            continue
        seen.add((i, j))
        if i == len(pattern) and j == len(form):
            return True
        p = pattern[i] if i < len(pattern) else None
        f = form[j] if j < len(form) else ""
        if p == _STAR:
            todo.append((i + 1, j))
            if j < len(form):
                todo.append((i, j + 1))
        if j < len(form) and f is None:
            todo.append((i, j + 1))
            if i < len(pattern):
                todo.append((i + 1, j))
        elif isinstance(p, re.Pattern) and f and p.fullmatch(f):
            todo.append((i + 1, j + 1))
    return False
