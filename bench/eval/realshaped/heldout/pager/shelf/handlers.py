"""GET /books?q=...&page=N&per_page=M  ->  (status, JSON body)."""

from __future__ import annotations

from urllib.parse import urlencode

from shelf.pagination import PageNotFound, paginate

DEFAULT_PER_PAGE = 20


def _int_param(params: dict[str, str], name: str, default: int) -> int:
    value = params.get(name, "")
    if not value:
        return default
    if not value.isdigit():
        raise ValueError(f"{name} must be a positive whole number")
    return int(value)


def list_books(params: dict[str, str], books: list[dict]) -> tuple[int, dict]:
    query = params.get("q", "").strip().lower()
    matches = [b for b in books if query in b["title"].lower() or query in b["author"].lower()]
    try:
        page_no = _int_param(params, "page", 1)
        per_page = _int_param(params, "per_page", DEFAULT_PER_PAGE)
        page = paginate(matches, page_no, per_page)
    except ValueError as exc:
        return 400, {"error": str(exc)}
    except PageNotFound as exc:
        return 404, {"error": f"no such page: {exc}"}

    def link(n: int) -> str:
        args = {"q": query, "page": n, "per_page": per_page} if query else {"page": n, "per_page": per_page}
        return "/books?" + urlencode(args)

    return 200, {
        "books": page.items,
        "page": page.number,
        "pages": page.total_pages,
        "total": page.total_items,
        "next": link(page.number + 1) if page.has_next else None,
        "prev": link(page.number - 1) if page.has_prev else None,
    }
