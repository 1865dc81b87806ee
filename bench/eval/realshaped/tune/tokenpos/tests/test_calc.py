import pytest

from calc.lexer import LexError, tokenize
from calc.parser import ParseError, evaluate


def kinds_and_texts(source):
    return [(t.kind, t.text) for t in tokenize(source)]


def test_tokens():
    assert kinds_and_texts("net = gross*(1 - .2)  # after tax\n") == [
        ("name", "net"), ("op", "="), ("name", "gross"), ("op", "*"), ("op", "("), ("num", "1"),
        ("op", "-"), ("num", ".2"), ("op", ")"), ("newline", "\n"), ("end", ""),
    ]


def test_bad_character():
    with pytest.raises(LexError, match="'@'"):
        tokenize("a = 1 @ 2")


def test_bad_number():
    with pytest.raises(LexError, match="1.2.3"):
        tokenize("a = 1.2.3")


def test_evaluate_lines_in_order():
    assert evaluate("rate = 0.25\n\ngross = 100\nnet = gross * (1 - rate)\n") == {
        "rate": 0.25, "gross": 100.0, "net": 75.0,
    }


def test_unary_minus_and_precedence():
    assert evaluate("x = -2 + 3 * 4 / 2") == {"x": 4.0}


@pytest.mark.parametrize(
    "source, message",
    [("x = (1 + 2", "end of input"), ("x = 1 +\n", "end of line"), ("x = 1 )", r"'\)'"), ("x = y", "unknown name 'y'")],
)
def test_parse_errors(source, message):
    with pytest.raises(ParseError, match=message):
        evaluate(source)


def test_division_by_zero():
    with pytest.raises(ParseError, match="division by zero"):
        evaluate("x = 1 / (2 - 2)")
