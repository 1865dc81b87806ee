from datetime import date

from hours.cli import main
from hours.entries import read_entries
from hours.report import days, totals_by_project, weekly_table

TEXT = """\
2024-03-04 3.5 acme
2024-03-05 4 acme
2024-03-07 1.5 beta
2024-03-10 2 acme sunday deploy
2024-03-10 1 beta
2024-03-11 8 acme next week
"""


def test_days_include_the_last_day():
    assert days(date(2024, 3, 4), date(2024, 3, 10)) == [date(2024, 3, d) for d in range(4, 11)]


def test_single_day_range():
    assert days(date(2024, 3, 10), date(2024, 3, 10)) == [date(2024, 3, 10)]
    assert totals_by_project(read_entries(TEXT), date(2024, 3, 10), date(2024, 3, 10)) == {"acme": 2.0, "beta": 1.0}


def test_totals_include_the_last_day():
    totals = totals_by_project(read_entries(TEXT), date(2024, 3, 4), date(2024, 3, 10))
    assert totals == {"acme": 9.5, "beta": 2.5}


def test_table_has_sunday_and_consistent_totals():
    table = weekly_table(read_entries(TEXT), date(2024, 3, 4), date(2024, 3, 10)).splitlines()
    header = table[0].split()
    assert header[-3:] == ["Sun", "10", "total"]
    assert table[1].split() == ["acme", "3.5", "4", "-", "-", "-", "-", "2", "9.5"]
    assert table[2].split() == ["beta", "-", "-", "-", "1.5", "-", "-", "1", "2.5"]
    assert table[3].split() == ["all", "3.5", "4", "-", "1.5", "-", "-", "3", "12"]


def test_cli_report(tmp_path, capsys):
    path = tmp_path / "hours.txt"
    path.write_text(TEXT)
    assert main(["report", str(path), "--from", "2024-03-10", "--to", "2024-03-11"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["project", "Sun", "10", "Mon", "11", "total"]
    assert out[1].split() == ["acme", "2", "8", "10"]
