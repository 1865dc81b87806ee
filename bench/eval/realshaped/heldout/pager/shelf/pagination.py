"""Splitting a list of results into numbered pages (page 1 is the first)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Sequence, TypeVar

T = TypeVar("T")

MAX_PER_PAGE = 100


class PageNotFound(LookupError):
    pass


@dataclass(frozen=True)
class Page(Generic[T]):
    items: list[T]
    number: int
    total_pages: int
    total_items: int

    @property
    def has_next(self) -> bool:
        return self.number < self.total_pages

    @property
    def has_prev(self) -> bool:
        return self.number > 1


def page_count(total_items: int, per_page: int) -> int:
    return total_items // per_page + 1


def paginate(items: Sequence[T], page: int, per_page: int) -> Page[T]:
    if not 1 <= per_page <= MAX_PER_PAGE:
        raise ValueError(f"per_page must be between 1 and {MAX_PER_PAGE}")
    pages = page_count(len(items), per_page)
    if not 1 <= page <= pages:
        raise PageNotFound(f"page {page} of {pages}")
    start = (page - 1) * per_page
    return Page(list(items[start : start + per_page]), page, pages, len(items))
