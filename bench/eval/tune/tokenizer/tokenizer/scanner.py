r"""Turn source text into tokens.

Names are letters, digits and underscores (not starting with a digit); numbers are
integers or decimals with an optional exponent; strings are in double quotes with
backslash escapes (\n, \t, \r, \0, \", \\ and \uXXXX; any other is kept as written);
`#` starts a comment to the end of the line. Newlines are tokens (statements end at
them) except inside brackets.
"""

from __future__ import annotations

from tokenizer.errors import TokenizeError
from tokenizer.tokens import KEYWORDS, OPERATORS, Kind, Token

_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "0": "\0"}
_CLOSERS = {"(": ")", "[": "]"}


class _Scanner:
    def __init__(self, source: str):
        self.source = source
        self.pos = 0
        self.line = 1
        self.line_start = 0
        self.depth = 0
        self.tokens: list[Token] = []

    @property
    def column(self) -> int:
        return self.pos - self.line_start + 1

    def error(self, message: str) -> TokenizeError:
        return TokenizeError(message, self.line, self.column)

    def peek(self, ahead: int = 0) -> str:
        index = self.pos + ahead
        return self.source[index] if index < len(self.source) else ""

    def emit(self, kind: Kind, start: int, column: int, value: object = None) -> None:
        text = self.source[start : self.pos]
        self.tokens.append(Token(kind, text, self.line, column, value))

    def run(self) -> list[Token]:
        while self.pos < len(self.source):
            char = self.peek()
            if char == "\n":
                self.newline()
            elif char in " \t\r":
                self.pos += 1
            elif char == "#":
                while self.peek() not in ("\n", ""):
                    self.pos += 1
            elif char.isdigit() or (char == "." and self.peek(1).isdigit()):
                self.number()
            elif char.isalpha() or char == "_":
                self.name()
            elif char == '"':
                self.string()
            else:
                self.operator()
        self.tokens.append(Token(Kind.END, "", self.line, self.column))
        return self.tokens

    def newline(self) -> None:
        start, column = self.pos, self.column
        self.pos += 1
        if self.depth == 0 and self.tokens and self.tokens[-1].kind is not Kind.NEWLINE:
            self.emit(Kind.NEWLINE, start, column)
        self.line += 1
        self.line_start = self.pos

    def number(self) -> None:
        start, column = self.pos, self.column
        while self.peek().isdigit():
            self.pos += 1
        is_float = False
        if self.peek() == "." and self.peek(1).isdigit():
            is_float = True
            self.pos += 1
            while self.peek().isdigit():
                self.pos += 1
        if self.peek() in ("e", "E") and (
            self.peek(1).isdigit() or (self.peek(1) in "+-" and self.peek(2).isdigit())
        ):
            is_float = True
            self.pos += 2
            while self.peek().isdigit():
                self.pos += 1
        text = self.source[start : self.pos]
        self.emit(Kind.NUMBER, start, column, float(text) if is_float else int(text))

    def name(self) -> None:
        start, column = self.pos, self.column
        while self.peek().isalnum() or self.peek() == "_":
            self.pos += 1
        text = self.source[start : self.pos]
        kind = Kind.KEYWORD if text in KEYWORDS else Kind.NAME
        self.emit(kind, start, column, text)

    def string(self) -> None:
        start, column = self.pos, self.column
        self.pos += 1
        chars: list[str] = []
        while True:
            char = self.peek()
            if char in ("", "\n"):
                raise TokenizeError("unterminated string", self.line, column)
            if char == '"':
                self.pos += 1
                break
            if char == "\\":
                chars.append(self.escape())
                continue
            chars.append(char)
            self.pos += 1
        self.emit(Kind.STRING, start, column, "".join(chars))

    def escape(self) -> str:
        """Read one backslash escape at pos; unknown escapes are kept as written."""
        code = self.peek(1)
        if code in _SIMPLE_ESCAPES:
            self.pos += 2
            return _SIMPLE_ESCAPES[code]
        self.pos += 1
        return "\\"

    def operator(self) -> None:
        start, column = self.pos, self.column
        for op in OPERATORS:
            if self.source.startswith(op, self.pos):
                break
        else:
            raise self.error(f"unexpected character {self.peek()!r}")
        if op in _CLOSERS:
            self.depth += 1
        elif op in _CLOSERS.values():
            self.depth = max(0, self.depth - 1)
        self.pos += len(op)
        self.emit(Kind.OP, start, column, op)

    def hex_digits(self, count: int) -> int:
        digits = self.source[self.pos : self.pos + count]
        if len(digits) != count or any(d not in "0123456789abcdefABCDEF" for d in digits):
            raise self.error(f"expected {count} hex digits")
        self.pos += count
        return int(digits, 16)


def tokenize(source: str) -> list[Token]:
    """All tokens of `source`, ending with one END token."""
    return _Scanner(source).run()
