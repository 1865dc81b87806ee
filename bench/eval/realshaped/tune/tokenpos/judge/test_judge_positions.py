import pytest

from calc.lexer import LexError, tokenize
from calc.parser import ParseError, evaluate


def test_tokens_carry_line_and_column():
    tokens = tokenize("rate = 0.2\n  net = gross*rate # c\n")
    got = [(t.kind, t.text, t.line, t.col) for t in tokens if t.kind != "end"]
    assert got == [
        ("name", "rate", 1, 1), ("op", "=", 1, 6), ("num", "0.2", 1, 8), ("newline", "\n", 1, 11),
        ("name", "net", 2, 3), ("op", "=", 2, 7), ("name", "gross", 2, 9), ("op", "*", 2, 14),
        ("name", "rate", 2, 15), ("newline", "\n", 2, 23),
    ]


def test_tabs_count_as_one_column():
    tokens = tokenize("\tx\t= 1")
    assert [(t.text, t.line, t.col) for t in tokens[:3]] == [("x", 1, 2), ("=", 1, 4), ("1", 1, 6)]


def test_old_token_comparisons_still_work():
    assert [(t.kind, t.text) for t in tokenize("a=1")] == [("name", "a"), ("op", "="), ("num", "1"), ("end", "")]


def test_lex_error_position():
    with pytest.raises(LexError) as caught:
        tokenize("a = 1\nb = 2 @ 3\n")
    assert str(caught.value).startswith("line 2, column 7: ")
    assert "'@'" in str(caught.value)
    assert (caught.value.line, caught.value.col) == (2, 7)


def test_malformed_number_points_at_its_start():
    with pytest.raises(LexError) as caught:
        tokenize("x = 1\n\n   y = 1.2.3")
    assert (caught.value.line, caught.value.col) == (3, 8)
    assert str(caught.value).startswith("line 3, column 8: ")


def test_parse_error_points_at_the_offending_token():
    with pytest.raises(ParseError) as caught:
        evaluate("rate = 0.2\nnet = 100 * ) rate\n")
    assert str(caught.value).startswith("line 2, column 13: ")
    assert "')'" in str(caught.value)
    assert (caught.value.line, caught.value.col) == (2, 13)


def test_unknown_name_position():
    with pytest.raises(ParseError) as caught:
        evaluate("a = 1\nb = a + c")
    assert (caught.value.line, caught.value.col) == (2, 9)
    assert str(caught.value) == "line 2, column 9: unknown name 'c'"
