"""Source text -> tokens."""

from __future__ import annotations

from dataclasses import dataclass

OPERATORS = "+-*/()="


class LexError(Exception):
    pass


@dataclass(frozen=True)
class Token:
    kind: str  # "num", "name", "op", "newline" or "end"
    text: str


def tokenize(source: str) -> list[Token]:
    tokens: list[Token] = []
    i = 0
    while i < len(source):
        ch = source[i]
        if ch == "#":
            while i < len(source) and source[i] != "\n":
                i += 1
        elif ch == "\n":
            tokens.append(Token("newline", ch))
            i += 1
        elif ch.isspace():
            i += 1
        elif ch.isdigit() or (ch == "." and source[i + 1 : i + 2].isdigit()):
            start = i
            while i < len(source) and (source[i].isdigit() or source[i] == "."):
                i += 1
            text = source[start:i]
            if text.count(".") > 1:
                raise LexError(f"malformed number {text!r}")
            tokens.append(Token("num", text))
        elif ch.isalpha() or ch == "_":
            start = i
            while i < len(source) and (source[i].isalnum() or source[i] == "_"):
                i += 1
            tokens.append(Token("name", source[start:i]))
        elif ch in OPERATORS:
            tokens.append(Token("op", ch))
            i += 1
        else:
            raise LexError(f"unexpected character {ch!r}")
    tokens.append(Token("end", ""))
    return tokens
