import pytest

from fixedwidth.convert import main, read_records, to_csv
from fixedwidth.layout import RecordError


def rec(day, description, amount, reference=""):
    return f"{day:<8}{description:<30}{amount:>12}{reference:<10}"


LINES = [rec("20240301", "COFFEE HOUSE", "-3.40", "A1"), rec("20240302", "SALARY", "2500.00"), rec("20240303", "RENT", "-950.00", "R9")]


def test_no_trailing_newline_keeps_the_last_record():
    records = read_records("\n".join(LINES))
    assert [r["description"] for r in records] == ["COFFEE HOUSE", "SALARY", "RENT"]


def test_crlf_without_trailing_newline():
    records = read_records("\r\n".join(LINES))
    assert [r["reference"] for r in records] == ["A1", "", "R9"]


def test_single_record_without_newline():
    assert len(read_records(LINES[0])) == 1


@pytest.mark.parametrize("text", ["\n".join(LINES) + "\n", "\n".join(LINES) + "\n\n\n", "\n" + "\n\n".join(LINES) + "\n"])
def test_trailing_and_blank_lines_still_fine(text):
    assert len(read_records(text)) == 3


def test_error_line_number_on_the_last_line():
    text = "\n".join(LINES[:2] + [rec("2024030X", "BAD", "1.00")])
    with pytest.raises(RecordError, match="line 3"):
        read_records(text)


def test_cli_converts_every_record(tmp_path, capsys):
    source = tmp_path / "april.txt"
    source.write_text("\n".join(LINES), encoding="latin-1")
    assert main([str(source)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "2024-03-03,RENT,-950.00,R9"
    assert to_csv(read_records("\n".join(LINES))).count("\n") == 4
