"""The invoice as plain text, for e-mail bodies and the terminal."""

from __future__ import annotations

from invoice.money import format_money
from invoice.totals import Invoice

WIDTH = 48


def render(invoice: Invoice) -> str:
    rows = [f"Invoice {invoice.number}", f"To: {invoice.customer}", "-" * WIDTH]
    for line in invoice.lines:
        label = f"{line.quantity} x {line.description}"
        rows.append(f"{label:<34}{format_money(line.net):>14}")
    rows.append("-" * WIDTH)
    rows.append(f"{'Net':<34}{format_money(invoice.net):>14}")
    if invoice.discount:
        rows.append(f"{'Discount':<34}{format_money(-invoice.discount):>14}")
    for band, amount in sorted(invoice.vat_by_band().items()):
        rows.append(f"{'VAT (' + band + ')':<34}{format_money(amount):>14}")
    rows.append(f"{'Total':<34}{format_money(invoice.total):>14}")
    return "\n".join(rows)
