from decimal import Decimal

import pytest

from invoice.lines import Line
from invoice.money import format_money, round_money, to_money
from invoice.render import render
from invoice.totals import Invoice


def test_round_half_up():
    assert round_money(Decimal("0.125")) == Decimal("0.13")
    assert round_money(Decimal("2.345")) == Decimal("2.35")
    assert round_money(Decimal("2.344")) == Decimal("2.34")


def test_floats_are_refused():
    with pytest.raises(TypeError):
        to_money(0.1)


def test_line_vat_rounds_half_up():
    line = Line.of("Pencil", 5, "0.125", "standard")  # net 0.625 -> 0.63, VAT 0.126 -> 0.13
    assert line.net == Decimal("0.63")
    assert line.vat == Decimal("0.13")


def test_invoice_total_with_discount():
    inv = Invoice("A-1", "Ada").add(Line.of("Book", 2, "7.25", "zero"))
    inv.add(Line.of("Lamp", 1, "24.99"))
    inv.discount_percent = Decimal("10")
    assert inv.net == Decimal("39.49")
    assert inv.discount == Decimal("3.95")
    assert inv.vat == Decimal("5.00")
    assert inv.total == Decimal("40.54")


def test_render_lists_every_band():
    inv = Invoice("A-2", "Bo").add(Line.of("Tea", 3, "2.50", "reduced"))
    text = render(inv)
    assert "VAT (reduced)" in text and format_money(Decimal("7.88")) in text
