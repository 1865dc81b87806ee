"""The rarer variants of a suspect's line, tried after every one-token change of every
suspect (agent/repair/variants.py): a local name, an attribute or a quoted text put for
another like it, and operators one step further off (`+` for `*`, `**` for `*`).
"""

from __future__ import annotations

import ast
import difflib
import itertools
import re
from collections.abc import Iterator

from agent.repair.suspects import Suspect

STRING = re.compile(  # a quoted text on one line, its escapes included
    r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'"
)
# Rarer mistakes, tried after every one-token change of every suspect.
RARER_SWAPS = [
    (r"(?<![+\-*/=<>!])\+(?![+=])", "*"),
    (r"(?<![*/])\*(?![*=])", "+"),
    (r"\*\*", "*"),
    (r"(?<![*/])\*(?![*=])", "**"),
    (r"%(?!=)", "//"),
    (r"\bbreak\b", "continue"),
    (r"\bcontinue\b", "break"),
]
_KEYWORDS = frozenset((
    "self", "cls", "this", "None", "True", "False", "and", "or", "not", "in", "is", "if",
    "else", "for", "while", "return", "def", "lambda", "let", "const", "var", "function",
    "new", "true", "false", "null", "undefined", "typeof", "of",
))  # fmt: skip
_PARAMETERS = re.compile(r"\(([^)]*)\)")
_ASSIGNED = re.compile(
    r"^\s*(?:let\s+|const\s+|var\s+)?([A-Za-z_]\w*)\s*(?::[^=]+)?[-+*/]?=(?!=)"
    r"|\bfor\s*\(?\s*(?:let\s+|const\s+|var\s+)?([A-Za-z_]\w*)\s+(?:in|of)\b"
)


def local_names(suspect: Suspect) -> list[str]:
    """The suspect's parameters and the names it assigns, in the order they appear: using
    one where another was meant is a common one-word bug."""
    lines = suspect.text.split("\n")
    found: list[str] = []
    params = _PARAMETERS.search(lines[0])
    listed = params.group(1) if params else ""
    while re.search(r"\[[^\[\]]*\]", listed):  # `dict[str, int]`: no commas of its own
        listed = re.sub(r"\[[^\[\]]*\]", "", listed)
    words = [m.group(1) for m in re.finditer(r"(?:^|,)\s*\**([A-Za-z_]\w*)", listed)]
    for line in lines[1:]:
        words += [name for match in _ASSIGNED.finditer(line) for name in match.groups() if name]
    for word in words:
        if word not in _KEYWORDS and word not in found:
            found.append(word)
    return found


def names_swapped(line: str, names: list[str]) -> Iterator[str]:
    """`line` with one use of a local name (not an attribute, a call or a keyword
    argument) replaced by another of `names`."""
    if len(names) < 2:
        return
    pattern = r"(?<![\w.])(" + "|".join(map(re.escape, names)) + r")(?![\w(])(?!\s*=[^=])"
    for match in re.finditer(pattern, line):
        if in_string(line, match.start()):
            continue
        for other in names:
            if other != match.group():
                yield line[: match.start()] + other + line[match.end() :]


_ATTRIBUTE = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\.([A-Za-z_]\w*)\b(?!\s*\()")
_SEPARATORS = (",", ", ", ";", ":", "-", "_", " ", "", "/", ".", "|", "\n")
MAX_LITERAL = 24  # longer texts are messages, not keys, separators or formats
MAX_PER_LITERAL = 8


def attributes_swapped(line: str, text: str) -> Iterator[str]:
    """`line` with one attribute (`self.width`, not a method call) put for another of the
    same object that the suspect uses."""
    used: dict[str, list[str]] = {}
    for match in _ATTRIBUTE.finditer(text):
        names = used.setdefault(match.group(1), [])
        if match.group(2) not in names:
            names.append(match.group(2))
    for match in _ATTRIBUTE.finditer(line):
        if in_string(line, match.start()):
            continue
        for other in used.get(match.group(1), []):
            if other != match.group(2):
                yield line[: match.start(2)] + other + line[match.end(2) :]


def string_literals(*texts: str) -> list[str]:
    """The short texts quoted in `texts`, in order: what a wrong literal may have meant."""
    found: list[str] = []
    for text in texts:
        for match in STRING.finditer(text):
            value = _literal(match.group())
            if value is not None and len(value) <= MAX_LITERAL and value not in found:
                found.append(value)
    return found


def literals_swapped(line: str, quoted: list[str]) -> Iterator[str]:
    """`line` with one plain quoted text put for a like one: a separator for another, or
    `"colour"` for the `"color"` the tests quote."""
    for match in STRING.finditer(line):
        if match.start() and line[match.start() - 1].isalpha():
            continue  # r"", f"", b"": a pattern, a format or bytes
        value = _literal(match.group())
        if value is None or len(value) > MAX_LITERAL:
            continue
        if len(value) <= 2 and not any(c.isalnum() for c in value):
            others = [c for c in (*_SEPARATORS, *quoted) if len(c) <= 2]
        elif len(value) <= 2:
            others = [c for c in quoted if len(c) <= 2 and c.isalnum()]
        else:
            others = [c for c in quoted if difflib.SequenceMatcher(None, value, c).ratio() >= 0.6]
        quote = match.group()[0]
        for other in [c for c in dict.fromkeys(others) if c != value][:MAX_PER_LITERAL]:
            text = other.replace("\\", "\\\\").replace(quote, "\\" + quote).replace("\n", "\\n")
            yield line[: match.start()] + quote + text + quote + line[match.end() :]


def _literal(source: str) -> str | None:
    try:
        value = ast.literal_eval(source)
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None


def rarer_variants(
    code: str, suspect: Suspect, names: list[str], quoted: list[str]
) -> Iterator[str]:
    """`code` (a line without its comment) with one rarer change."""
    return itertools.chain(
        names_swapped(code, names),
        attributes_swapped(code, suspect.text),
        literals_swapped(code, quoted),
        swapped(code, RARER_SWAPS),
    )


def swapped(code: str, swaps: list[tuple[str, str]]) -> Iterator[str]:
    for pattern, replacement in swaps:
        for match in re.finditer(pattern, code):
            if not in_string(code, match.start()):
                yield code[: match.start()] + replacement + code[match.end() :]


def in_string(line: str, index: int) -> bool:
    return any(m.start() < index < m.end() - 1 for m in STRING.finditer(line))
