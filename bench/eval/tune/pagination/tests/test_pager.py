import pytest

from pager import page_links, paginate
from pager.page import PageNotFound, page_count


@pytest.mark.parametrize(
    "total, per_page, pages",
    [(0, 10, 1), (1, 10, 1), (9, 10, 1), (10, 10, 1), (11, 10, 2), (20, 10, 2), (21, 10, 3)],
)
def test_page_count(total, per_page, pages):
    assert page_count(total, per_page) == pages


def test_last_full_page_has_no_next():
    page = paginate(list(range(40)), 2, per_page=20)
    assert page.items[-1] == 39 and not page.has_next


def test_no_page_past_the_end():
    with pytest.raises(PageNotFound):
        paginate(list(range(30)), 4, per_page=10)


def test_indexes():
    page = paginate(list("abcdefghijk"), 2, per_page=5)
    assert (page.first_index, page.last_index) == (6, 10)


def test_links_with_gaps():
    assert page_links(6, 20) == [1, None, 4, 5, 6, 7, 8, None, 20]
    assert page_links(1, 3) == [1, 2, 3]
