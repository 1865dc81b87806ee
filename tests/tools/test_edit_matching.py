from __future__ import annotations

import pytest

from agent.tools.base import ToolFailure, workspace_path
from agent.tools.edits import replace_keeping_line_endings
from agent.tools.matching import replace

SOURCE = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n"


def test_exact_single_match() -> None:
    result = replace("x = 1\ny = 2\n", "y = 2", "y = 3")
    assert result.text == "x = 1\ny = 3\n" and not result.fuzzy


def test_several_matches_name_their_lines() -> None:
    with pytest.raises(ToolFailure) as err:
        replace(SOURCE, "return a - b", "return a + b", path="calc.py")
    assert "2 times" in str(err.value) and "lines 2, 6" in str(err.value)
    assert "replace_all" in str(err.value)


def test_replace_all() -> None:
    result = replace(SOURCE, "a - b", "a + b", replace_all=True)
    assert result.count == 2 and "a - b" not in result.text


def test_whitespace_tolerant_retry_reindents() -> None:
    # The model lost the indentation and added trailing spaces.
    result = replace(SOURCE, "def sub(a, b):  \nreturn a - b", "def sub(a, b):\nreturn b - a")
    assert result.fuzzy
    assert result.text.endswith("def sub(a, b):\n    return b - a\n")
    assert result.text.startswith("def add(a, b):\n    return a - b\n")


def test_fuzzy_keeps_relative_indentation() -> None:
    source = "class A:\n    def f(self):\n        return 1\n"
    result = replace(source, "def f(self):\n    return 1", "def f(self):\n    return 2")
    assert result.text == "class A:\n    def f(self):\n        return 2\n"


def test_not_found_in_a_long_file_shows_similar_lines() -> None:
    long_source = SOURCE + "\n# padding\n" * 60
    with pytest.raises(ToolFailure) as err:
        replace(long_source, "return a * b", "x", path="calc.py")
    message = str(err.value)
    assert "not found in calc.py" in message and "line 2:" in message
    assert "# padding" not in message


def test_not_found_in_a_small_file_quotes_it_whole() -> None:
    with pytest.raises(ToolFailure) as err:
        replace(SOURCE, "return a * b", "x", path="calc.py")
    assert f"whole file now:\n```\n{SOURCE.rstrip()}\n```" in str(err.value)


def test_line_numbers_copied_from_read_file_are_ignored() -> None:
    # read_file shows "    2<TAB>    return a - b"; small models copy that prefix along.
    result = replace(SOURCE, "    5\tdef sub(a, b):\n    6\t    return a - b", "    6\t    pass")
    assert result.text == "def add(a, b):\n    return a - b\n\n\n    pass\n"


def test_empty_old_text_points_to_write_file() -> None:
    with pytest.raises(ToolFailure, match="write_file"):
        replace(SOURCE, "", "x")


@pytest.mark.parametrize("bad", ["/etc/passwd", "../x", "a/../../x", ".git/config", ""])
def test_paths_escaping_the_repo_are_refused(bad: str) -> None:
    with pytest.raises(ToolFailure):
        workspace_path(bad)


def test_paths_are_normalised() -> None:
    assert workspace_path("./src//a.py") == "src/a.py"
    assert workspace_path("/workspace/src/a.py") == "src/a.py"
    assert workspace_path("", allow_root=True) == "."


def test_a_left_out_blank_line_still_matches() -> None:
    result = replace(
        SOURCE, "    return a - b\ndef sub(a, b):", "    return a + b\n\n\ndef sub(a, b):"
    )
    assert result.fuzzy
    assert result.text == SOURCE.replace("a - b", "a + b", 1)


def test_a_crlf_file_stays_crlf() -> None:
    crlf = "def add(a, b):\r\n    return a - b\r\n\r\nx = 1\r\n"
    done = replace_keeping_line_endings(
        crlf,
        "def add(a, b):\n    return a - b",
        "def add(a, b):\n    return a + b",
        replace_all=False,
        path="c.py",
    )
    assert done.text == "def add(a, b):\r\n    return a + b\r\n\r\nx = 1\r\n"
    mixed = "a\r\nb\n"  # edited as it is: nothing is converted
    assert (
        replace_keeping_line_endings(mixed, "b", "c", replace_all=False, path="m").text
        == "a\r\nc\n"
    )
