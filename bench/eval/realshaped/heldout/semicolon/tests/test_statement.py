from datetime import date
from decimal import Decimal

import pytest

from bankcsv.parse import StatementError, Transaction, parse_amount, read_transactions
from bankcsv.summary import format_summary, monthly_totals

STATEMENT = """\ufeffDate,Description,Amount,Balance
2024-03-01,Coffee,-3.40,996.60
2024-03-02,"Salary, March","2,500.00","3,496.60"

2024-04-01,Rent,-950,"2,546.60"
"""


def test_read_transactions():
    assert read_transactions(STATEMENT) == [
        Transaction(date(2024, 3, 1), "Coffee", Decimal("-3.40")),
        Transaction(date(2024, 3, 2), "Salary, March", Decimal("2500.00")),
        Transaction(date(2024, 4, 1), "Rent", Decimal("-950")),
    ]


def test_column_order_does_not_matter():
    text = "amount,DATE,description\n12.5,2024-01-02,Refund\n"
    assert read_transactions(text) == [Transaction(date(2024, 1, 2), "Refund", Decimal("12.5"))]


@pytest.mark.parametrize("text, message", [
    ("", "empty"),
    ("Date,Amount\n", "description"),
    ("Date,Description,Amount\n2024-03-01,x,lots\n", "line 2"),
    ("Date,Description,Amount\n01/03/2024,x,1\n", "line 2"),
])
def test_errors(text, message):
    with pytest.raises(StatementError, match=message):
        read_transactions(text)


def test_parse_amount():
    assert parse_amount(" -1,234.50 ") == Decimal("-1234.50")


def test_monthly_totals_and_format():
    months = monthly_totals(read_transactions(STATEMENT))
    assert months["2024-03"] == {"in": Decimal("2500.00"), "out": Decimal("-3.40"), "net": Decimal("2496.60")}
    assert format_summary(months).splitlines()[1] == "2024-03     2,500.00       -3.40    2,496.60"
