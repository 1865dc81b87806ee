"""Totals of an invoice, with VAT broken down by band as the tax office wants."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from invoice.lines import Line
from invoice.money import round_money


@dataclass
class Invoice:
    number: str
    customer: str
    lines: list[Line] = field(default_factory=list)
    discount_percent: Decimal = Decimal("0")

    def add(self, line: Line) -> Invoice:
        self.lines.append(line)
        return self

    @property
    def net(self) -> Decimal:
        return sum((line.net for line in self.lines), Decimal("0"))

    @property
    def discount(self) -> Decimal:
        return round_money(self.net * self.discount_percent / 100)

    def vat_by_band(self) -> dict[str, Decimal]:
        bands: dict[str, Decimal] = defaultdict(Decimal)
        for line in self.lines:
            bands[line.vat_band] += line.vat
        return dict(bands)

    @property
    def vat(self) -> Decimal:
        return sum(self.vat_by_band().values(), Decimal("0"))

    @property
    def total(self) -> Decimal:
        return self.net - self.discount + self.vat
