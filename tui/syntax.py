"""Token colours for code inside diffs, taken from the current theme's variables.

Textual's highlighter names its colours as theme variables ("$text-accent"); we resolve
them against the running app's theme so every theme, user themes included, restyles code.
"""

from __future__ import annotations

from functools import lru_cache

from rich.errors import StyleSyntaxError
from rich.style import Style
from rich.text import Text
from textual.highlight import highlight


def highlighted(code: str, path: str | None, variables: dict[str, str]) -> Text:
    """`code` (one line) as rich Text coloured for the language `path` implies."""
    if not path:
        return Text(code)
    content = highlight(code, path=path)
    text = Text(code)
    palette = tuple(sorted(variables.items()))
    for span in content.spans:
        style = _resolve(str(span.style), palette)
        if style is not None:
            text.stylize(style, span.start, min(span.end, len(code)))
    return text


@lru_cache(maxsize=256)
def _resolve(spec: str, palette: tuple[tuple[str, str], ...]) -> Style | None:
    variables = dict(palette)
    words = []
    for word in spec.split():
        if word.startswith("$"):
            value = variables.get(word[1:], "")
            if not value.startswith("#"):  # "auto 60%" and the like: leave the base colour
                continue
            words.append(value)
        elif word in ("bold", "italic", "underline", "dim", "strike"):
            words.append(word)
    if not words:
        return None
    try:
        return Style.parse(" ".join(words))
    except StyleSyntaxError:
        return None
