import datetime as dt

import pytest

from library.catalog import Catalog, Item
from library.dates import days_late, due_date
from library.loans import Desk, fine_pence

MON = dt.date(2024, 3, 4)


@pytest.fixture
def desk():
    catalog = Catalog()
    catalog.add(Item("b1", "The Hobbit", "book"))
    catalog.add(Item("d1", "Alien", "dvd"))
    catalog.add(Item("r1", "Atlas of the World", "reference"))
    return Desk(catalog)


def test_due_date_skips_sunday():
    assert due_date(MON, 6) == dt.date(2024, 3, 11)


def test_days_late():
    assert days_late(MON, MON) == 0
    assert days_late(MON, MON + dt.timedelta(days=1)) == 1
    assert days_late(MON, MON + dt.timedelta(days=5)) == 5


def test_dvd_three_days_late(desk):
    loan = desk.lend("d1", "ada", MON)
    assert loan.due == dt.date(2024, 3, 11)
    assert desk.give_back("d1", dt.date(2024, 3, 14)) == 300


def test_fine_is_capped():
    assert fine_pence("dvd", MON, MON + dt.timedelta(days=30)) == 800


def test_reference_cannot_be_borrowed(desk):
    with pytest.raises(ValueError):
        desk.lend("r1", "ada", MON)
