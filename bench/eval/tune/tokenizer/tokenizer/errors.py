"""Errors that point at a line and column of the source."""

from __future__ import annotations


class TokenizeError(ValueError):
    def __init__(self, message: str, line: int, column: int):
        super().__init__(f"{line}:{column}: {message}")
        self.line = line
        self.column = column
