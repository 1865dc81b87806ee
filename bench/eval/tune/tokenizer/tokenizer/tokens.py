"""Token kinds and the token itself."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Kind(enum.Enum):
    NAME = "name"
    KEYWORD = "keyword"
    NUMBER = "number"
    STRING = "string"
    OP = "op"
    NEWLINE = "newline"
    END = "end"


KEYWORDS = frozenset({"and", "or", "not", "if", "then", "else", "true", "false", "none"})

# Longest first, so that "<=" is never read as "<" then "=".
OPERATORS = ("**", "==", "!=", "<=", ">=", "->", "+", "-", "*", "/", "%", "<", ">", "=",
             "(", ")", "[", "]", ",", ".", ":")  # fmt: skip


@dataclass(frozen=True)
class Token:
    kind: Kind
    text: str
    line: int
    column: int
    value: object = None

    def is_op(self, text: str) -> bool:
        return self.kind is Kind.OP and self.text == text

    def __str__(self) -> str:
        return f"{self.kind.value} {self.text!r} at {self.line}:{self.column}"
