from datetime import date

import pytest

from hours.entries import Entry, EntryError, read_entries
from hours.report import days, totals_by_project, weekly_table

TEXT = """\
# week 10
2024-03-04 3.5 acme login page
2024-03-04 2 Internal standup and planning
2024-03-05 4 acme
2024-03-07 1.5 beta
2024-03-12 8 acme next week
"""


def test_read_entries():
    entries = read_entries(TEXT)
    assert len(entries) == 5
    assert entries[1] == Entry(date(2024, 3, 4), 2.0, "internal", "standup and planning")


@pytest.mark.parametrize("line", ["2024-03-04 3.5", "2024-13-01 1 x", "2024-03-04 lots x", "2024-03-04 30 x"])
def test_bad_lines(line):
    with pytest.raises(EntryError, match="line 1"):
        read_entries(line)


def test_days_start_on_the_first_day():
    assert days(date(2024, 3, 4), date(2024, 3, 10))[:2] == [date(2024, 3, 4), date(2024, 3, 5)]


def test_days_reject_backwards_range():
    with pytest.raises(ValueError):
        days(date(2024, 3, 10), date(2024, 3, 4))


def test_totals_by_project():
    totals = totals_by_project(read_entries(TEXT), date(2024, 3, 4), date(2024, 3, 10))
    assert totals == {"acme": 7.5, "beta": 1.5, "internal": 2.0}


def test_weekly_table():
    table = weekly_table(read_entries(TEXT), date(2024, 3, 4), date(2024, 3, 10)).splitlines()
    assert table[0].split()[:5] == ["project", "Mon", "04", "Tue", "05"]
    assert table[0].endswith("total")
    acme = table[1].split()
    assert acme[:4] == ["acme", "3.5", "4", "-"]
    assert acme[-1] == "7.5"
    assert table[-1].split()[-1] == "11"
