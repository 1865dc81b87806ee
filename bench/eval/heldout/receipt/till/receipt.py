"""The receipt: 32 columns, like the thermal printer, prices right-aligned."""

from __future__ import annotations

from till.basket import Basket

WIDTH = 32


def money(pence: int) -> str:
    """1234 -> "12.34"; always two decimals."""
    return f"{pence / 100:g}"


def row(label: str, pence: int) -> str:
    amount = money(pence)
    return f"{label[: WIDTH - len(amount) - 1]:<{WIDTH - len(amount)}}{amount}"


def receipt(basket: Basket, shop: str = "CORNER SHOP") -> str:
    lines = [shop.center(WIDTH), "=" * WIDTH]
    for item in sorted(basket.counts):
        count = basket.counts[item]
        label = item if count == 1 else f"{item} x{count}"
        lines.append(row(label, basket.line_total(item)))
        if basket.saving(item):
            lines.append(row("  you saved", basket.saving(item)))
    lines.append("-" * WIDTH)
    lines.append(row("TOTAL", basket.total()))
    return "\n".join(lines)
