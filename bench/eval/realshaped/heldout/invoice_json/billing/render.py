"""The plain-text invoice we attach to e-mails."""

from __future__ import annotations

from billing.invoice import Invoice


def render(invoice: Invoice) -> str:
    out = [
        f"INVOICE {invoice.number}",
        f"To: {invoice.customer}",
        f"Issued: {invoice.issued:%d %b %Y}    Due: {invoice.due:%d %b %Y}",
        "",
    ]
    for line in invoice.lines:
        out.append(f"{line.description[:30]:<30} {line.quantity:>4} x {line.unit_price:>9,.2f} {line.net:>10,.2f}")
    out += [
        "",
        f"{'Subtotal':>48} {invoice.subtotal:>10,.2f}",
        f"{'VAT':>48} {invoice.vat:>10,.2f}",
        f"{'Total':>48} {invoice.total:>10,.2f}",
    ]
    return "\n".join(out) + "\n"
