from datetime import date
from decimal import Decimal

from bankcsv.parse import Transaction, read_transactions
from bankcsv.summary import monthly_totals

EUROPEAN = """Date;Description;Amount
2024-03-01;Bäckerei;-4,50
2024-03-02;Gehalt;2.500,00
2024-03-05;"Miete; März";-1.200,00
2024-04-01;Zinsen;0,37
"""


def test_semicolon_file_with_decimal_commas():
    assert read_transactions(EUROPEAN) == [
        Transaction(date(2024, 3, 1), "Bäckerei", Decimal("-4.50")),
        Transaction(date(2024, 3, 2), "Gehalt", Decimal("2500.00")),
        Transaction(date(2024, 3, 5), "Miete; März", Decimal("-1200.00")),
        Transaction(date(2024, 4, 1), "Zinsen", Decimal("0.37")),
    ]


def test_semicolon_file_with_bom_extra_columns_and_blank_lines():
    text = "\ufeffBuchung;Amount;Date;Description\nx;-12,99;2024-05-06;Buch, gebraucht\n\n;1.000.000,01;2024-05-07;Lotto\n"
    assert read_transactions(text) == [
        Transaction(date(2024, 5, 6), "Buch, gebraucht", Decimal("-12.99")),
        Transaction(date(2024, 5, 7), "Lotto", Decimal("1000000.01")),
    ]


def test_totals_from_a_semicolon_file():
    months = monthly_totals(read_transactions(EUROPEAN))
    assert months["2024-03"] == {"in": Decimal("2500"), "out": Decimal("-1204.50"), "net": Decimal("1295.50")}


def test_comma_files_unchanged():
    text = 'Date,Description,Amount\n2024-03-02,"Salary, March","2,500.00"\n2024-03-03,Tea,-1.25\n'
    assert [t.amount for t in read_transactions(text)] == [Decimal("2500.00"), Decimal("-1.25")]
