"""Monthly budgets: categories with limits, a ledger of spending, and alerts."""

from budget.alerts import NEAR_SHARE, category_status, exceeds, overspent
from budget.categories import Category, load_categories
from budget.ledger import Ledger, Transaction
from budget.money import format_amount, parse_amount

__all__ = [
    "NEAR_SHARE",
    "Category",
    "Ledger",
    "Transaction",
    "category_status",
    "exceeds",
    "format_amount",
    "load_categories",
    "overspent",
    "parse_amount",
]
