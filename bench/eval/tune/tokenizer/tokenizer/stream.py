"""A cursor over tokens, the way a parser reads them."""

from __future__ import annotations

from tokenizer.errors import TokenizeError
from tokenizer.tokens import Kind, Token


class TokenStream:
    def __init__(self, tokens: list[Token]):
        self.tokens = tokens
        self.index = 0

    def peek(self) -> Token:
        return self.tokens[self.index]

    def next(self) -> Token:
        token = self.tokens[self.index]
        if token.kind is not Kind.END:
            self.index += 1
        return token

    def accept(self, kind: Kind, text: str | None = None) -> Token | None:
        token = self.peek()
        if token.kind is kind and (text is None or token.text == text):
            return self.next()
        return None

    def expect(self, kind: Kind, text: str | None = None) -> Token:
        token = self.accept(kind, text)
        if token is None:
            got = self.peek()
            wanted = text or kind.value
            raise TokenizeError(f"expected {wanted}, got {got.text or 'the end'}", got.line, got.column)
        return token

    def at_end(self) -> bool:
        return self.peek().kind is Kind.END
