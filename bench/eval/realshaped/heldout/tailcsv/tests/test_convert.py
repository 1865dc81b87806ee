from datetime import date
from decimal import Decimal

import pytest
from conftest import record

from fixedwidth.convert import main, read_records, to_csv
from fixedwidth.layout import RecordError

STATEMENT = "\n".join([
    record("20240301", "COFFEE HOUSE", "-3.40", "A1"),
    "",
    record("20240302", "SALARY MARCH", "2500.00", "PAY"),
    record("20240303", "RENT", "-950.00"),
]) + "\n"


def test_read_records():
    records = read_records(STATEMENT)
    assert [r["description"] for r in records] == ["COFFEE HOUSE", "SALARY MARCH", "RENT"]
    assert records[0] == {"date": date(2024, 3, 1), "description": "COFFEE HOUSE", "amount": Decimal("-3.40"), "reference": "A1"}


def test_windows_line_endings():
    assert len(read_records(STATEMENT.replace("\n", "\r\n"))) == 3


def test_bad_date_reports_line():
    text = record("20240301", "OK", "1.00") + "\n" + record("2024-3-2", "BAD", "1.00") + "\n"
    with pytest.raises(RecordError, match="line 2"):
        read_records(text)


def test_short_record():
    with pytest.raises(RecordError, match="too short"):
        read_records("20240301 SHORT\n")


def test_to_csv():
    text = to_csv(read_records(STATEMENT))
    assert text.splitlines() == [
        "date,description,amount,reference",
        "2024-03-01,COFFEE HOUSE,-3.40,A1",
        "2024-03-02,SALARY MARCH,2500.00,PAY",
        "2024-03-03,RENT,-950.00,",
    ]


def test_main_writes_file(tmp_path):
    source = tmp_path / "march.txt"
    source.write_text(STATEMENT, encoding="latin-1")
    out = tmp_path / "march.csv"
    assert main([str(source), "-o", str(out)]) == 0
    assert out.read_text().count("\n") == 4
