"""Tokens -> values. One assignment per line; later lines can use earlier names.

    program   := (line? newline)* end
    line      := name "=" expr
    expr      := term (("+" | "-") term)*
    term      := factor (("*" | "/") factor)*
    factor    := num | name | "-" factor | "(" expr ")"
"""

from __future__ import annotations

from calc.lexer import Token, tokenize


class ParseError(Exception):
    pass


class _Parser:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.names: dict[str, float] = {}

    def peek(self) -> Token:
        return self.tokens[self.pos]

    def take(self, kind: str, text: str | None = None) -> Token:
        token = self.peek()
        if token.kind != kind or (text is not None and token.text != text):
            raise self.error(token)
        self.pos += 1
        return token

    def error(self, token: Token) -> ParseError:
        if token.kind == "end":
            return ParseError("unexpected end of input")
        if token.kind == "newline":
            return ParseError("unexpected end of line")
        return ParseError(f"unexpected {token.text!r}")

    def program(self) -> dict[str, float]:
        while self.peek().kind != "end":
            if self.peek().kind != "newline":
                name = self.take("name").text
                self.take("op", "=")
                self.names[name] = self.expr()
            if self.peek().kind != "end":
                self.take("newline")
        return self.names

    def expr(self) -> float:
        value = self.term()
        while self.peek().kind == "op" and self.peek().text in "+-":
            op = self.take("op").text
            value = value + self.term() if op == "+" else value - self.term()
        return value

    def term(self) -> float:
        value = self.factor()
        while self.peek().kind == "op" and self.peek().text in "*/":
            op = self.take("op").text
            right = self.factor()
            if op == "/" and right == 0:
                raise ParseError("division by zero")
            value = value * right if op == "*" else value / right
        return value

    def factor(self) -> float:
        token = self.peek()
        if token.kind == "num":
            self.pos += 1
            return float(token.text)
        if token.kind == "name":
            self.pos += 1
            if token.text not in self.names:
                raise ParseError(f"unknown name {token.text!r}")
            return self.names[token.text]
        if token.kind == "op" and token.text == "-":
            self.pos += 1
            return -self.factor()
        if token.kind == "op" and token.text == "(":
            self.pos += 1
            value = self.expr()
            self.take("op", ")")
            return value
        raise self.error(token)


def evaluate(source: str) -> dict[str, float]:
    return _Parser(tokenize(source)).program()
