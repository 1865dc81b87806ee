"""What an edit introduced: known again by file, severity, code and message, not line."""

from __future__ import annotations

from agent.lsp.diagnostics import (
    MAX_LINES,
    Diagnostic,
    from_lsp,
    from_tsserver,
    introduced,
    problems_told,
    report,
)


def d(
    message: str, line: int = 1, severity: str = "error", code: str = "", path: str = "a.py"
) -> Diagnostic:
    return Diagnostic(line, 1, severity, message, code, path)


def test_a_diagnostic_that_moved_lines_is_not_new() -> None:
    before = [d("x is not defined", 3), d("unused expression", 9, "warning")]
    after = [
        d("x is not defined", 7),
        d("unused expression", 13, "warning"),
        d("y is not defined", 2),
    ]
    assert introduced(before, after) == [d("y is not defined", 2)]


def test_a_second_copy_of_an_old_error_is_new() -> None:
    assert introduced(
        [d("x is not defined", 3)], [d("x is not defined", 3), d("x is not defined", 5)]
    ) == [d("x is not defined", 5)]


def test_errors_come_first_and_hints_are_not_told() -> None:
    after = [
        d("w", 1, "warning"),
        d("hint", 1, "hint"),
        d("info", 1, "info"),
        d("e", 5, "error", path="b.py"),
    ]
    assert [x.message for x in introduced([], after)] == ["e", "w"]


def test_the_same_message_in_another_file_is_another_diagnostic() -> None:
    assert introduced([d("boom", path="a.py")], [d("boom", path="b.py")]) == [
        d("boom", path="b.py")
    ]


def test_the_report_is_capped_and_says_how_many_more() -> None:
    many = [d(f"problem {i}", i) for i in range(30)]
    text = report("pyright-langserver", many)
    lines = text.splitlines()
    assert len(lines) == MAX_LINES and lines[-1] == f"... and {30 - (MAX_LINES - 2)} more"
    assert lines[1] == "a.py:0:1: error: problem 0"
    assert report("x", []) == ""
    assert len(report("x", [d("one")]).splitlines()) == 2


def test_a_long_or_many_lined_message_is_cut_to_one_line() -> None:
    line = report("s", [d("first line\n  details " + "z" * 500)]).splitlines()[1]
    assert line == "a.py:1:1: error: first line" and "\n" not in line
    assert len(report("s", [d("y" * 500)]).splitlines()[1]) < 240


def test_lsp_and_tsserver_shapes_are_read() -> None:
    lsp = from_lsp(
        {
            "range": {"start": {"line": 4, "character": 2}},
            "severity": 2,
            "message": "m",
            "code": "rule",
        }
    )
    assert (lsp.line, lsp.column, lsp.severity, lsp.code) == (5, 3, "warning", "rule")
    assert from_lsp({"message": "no range", "code": {"value": 7}}).code == "7"
    ts = from_tsserver(
        {"start": {"line": 2, "offset": 14}, "text": "t", "code": 2322, "category": "error"}
    )
    assert (ts.line, ts.column, ts.severity, ts.code, ts.message) == (2, 14, "error", "2322", "t")
    assert from_tsserver({"category": "suggestion", "text": "s"}).severity == "hint"


def test_the_problems_a_result_tells_of_are_counted_back_from_it() -> None:
    few = report("pyright-langserver", [d("a"), d("b", 2, "warning")])
    assert problems_told(f"Edited a.py: replaced 1 place.\n{few}") == 2
    many = report("pyright-langserver", [d(f"p{i}", i) for i in range(25)])
    assert problems_told(f"Created a.py (3 lines).\n{many}") == 25
    assert problems_told("Edited a.py: replaced 1 place.") == 0
