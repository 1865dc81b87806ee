import pytest

from shelf.handlers import list_books
from shelf.pagination import PageNotFound, paginate

BOOKS = [{"title": f"Book {n:02}", "author": "Knuth" if n % 5 == 0 else "Someone"} for n in range(1, 26)]


def test_paginate_middle_page():
    page = paginate(list(range(25)), 2, 10)
    assert page.items == list(range(10, 20))
    assert (page.total_pages, page.has_prev, page.has_next) == (3, True, True)


def test_paginate_last_partial_page():
    page = paginate(list(range(25)), 3, 10)
    assert page.items == [20, 21, 22, 23, 24]
    assert not page.has_next


def test_paginate_rejects_bad_sizes():
    with pytest.raises(ValueError):
        paginate([1], 1, 0)
    with pytest.raises(ValueError):
        paginate([1], 1, 101)


def test_page_out_of_range():
    with pytest.raises(PageNotFound):
        paginate(list(range(25)), 9, 10)


def test_handler_first_page():
    status, body = list_books({"per_page": "10"}, BOOKS)
    assert status == 200
    assert [b["title"] for b in body["books"]][:2] == ["Book 01", "Book 02"]
    assert (body["page"], body["pages"], body["total"]) == (1, 3, 25)
    assert body["next"] == "/books?page=2&per_page=10"
    assert body["prev"] is None


def test_handler_search_keeps_query_in_links():
    status, body = list_books({"q": "Knuth", "per_page": "2"}, BOOKS)
    assert status == 200 and body["total"] == 5
    assert body["next"] == "/books?q=knuth&page=2&per_page=2"


def test_handler_errors():
    assert list_books({"page": "x"}, BOOKS)[0] == 400
    assert list_books({"page": "99"}, BOOKS)[0] == 404
