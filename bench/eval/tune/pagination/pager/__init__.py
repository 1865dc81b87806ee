"""Pagination for lists and query results, and the page links a web page shows."""

from pager.links import page_links
from pager.page import Page, paginate

__all__ = ["Page", "page_links", "paginate"]
