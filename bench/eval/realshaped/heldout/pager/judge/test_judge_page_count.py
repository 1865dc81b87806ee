import pytest

from shelf.handlers import list_books
from shelf.pagination import PageNotFound, page_count, paginate

TWENTY = [{"title": f"Book {n:02}", "author": "A. Author"} for n in range(1, 21)]


@pytest.mark.parametrize("total, per_page, pages", [(20, 10, 2), (10, 10, 1), (1, 10, 1), (21, 10, 3), (0, 10, 1), (100, 1, 100)])
def test_page_count(total, per_page, pages):
    assert page_count(total, per_page) == pages


def test_exact_multiple_has_no_empty_page():
    status, body = list_books({"per_page": "10", "page": "2"}, TWENTY)
    assert status == 200
    assert body["pages"] == 2
    assert body["next"] is None
    assert [b["title"] for b in body["books"]][-1] == "Book 20"
    assert list_books({"per_page": "10", "page": "3"}, TWENTY)[0] == 404


def test_no_results_is_one_empty_page():
    status, body = list_books({"q": "nothing like this"}, TWENTY)
    assert status == 200
    assert (body["books"], body["pages"], body["next"], body["prev"]) == ([], 1, None, None)


def test_paginate_exact_multiple():
    page = paginate(list(range(30)), 3, 10)
    assert page.items == list(range(20, 30)) and not page.has_next
    with pytest.raises(PageNotFound):
        paginate(list(range(30)), 4, 10)
