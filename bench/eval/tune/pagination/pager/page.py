"""One page of a sequence, and what a template needs to know about it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


class PageNotFound(LookupError):
    pass


def page_count(total: int, per_page: int) -> int:
    """How many pages `total` items fill; an empty list still has one (empty) page."""
    if per_page < 1:
        raise ValueError("per_page must be at least 1")
    if total == 0:
        return 1
    return (total + per_page) // per_page


@dataclass(frozen=True)
class Page(Generic[T]):
    items: Sequence[T]
    number: int
    per_page: int
    total: int

    @property
    def pages(self) -> int:
        return page_count(self.total, self.per_page)

    @property
    def has_next(self) -> bool:
        return self.number < self.pages

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def first_index(self) -> int:
        """1-based index of the first item on this page, as shown ("showing 11-20")."""
        return 0 if not self.items else (self.number - 1) * self.per_page + 1

    @property
    def last_index(self) -> int:
        return self.first_index + len(self.items) - 1 if self.items else 0


def paginate(items: Sequence[T], number: int, per_page: int = 20) -> Page[T]:
    pages = page_count(len(items), per_page)
    if not 1 <= number <= pages:
        raise PageNotFound(f"page {number} of {pages}")
    start = (number - 1) * per_page
    return Page(items[start : start + per_page], number, per_page, len(items))
