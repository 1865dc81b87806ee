"""Posts: a front-matter block of `key: value` lines between --- markers, then the body."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from blogkit.slug import unique_slug


class PostError(ValueError):
    pass


@dataclass
class Post:
    title: str
    published: date
    slug: str
    body: str
    tags: tuple[str, ...] = ()

    @property
    def permalink(self) -> str:
        return f"/{self.published:%Y/%m}/{self.slug}/"


def parse_post(text: str, taken: set[str]) -> Post:
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        raise PostError("a post starts with a --- line")
    try:
        end = lines.index("---", 1)
    except ValueError:
        raise PostError("the front matter is not closed with ---") from None
    meta = {}
    for line in lines[1:end]:
        key, sep, value = line.partition(":")
        if not sep:
            raise PostError(f"not a 'key: value' line: {line!r}")
        meta[key.strip().lower()] = value.strip()
    if "title" not in meta or "date" not in meta:
        raise PostError("a post needs a title and a date")
    slug = meta.get("slug") or unique_slug(meta["title"], taken)
    taken.add(slug)
    tags = tuple(t.strip().lower() for t in meta.get("tags", "").split(",") if t.strip())
    body = "\n".join(lines[end + 1 :]).strip() + "\n"
    return Post(meta["title"], date.fromisoformat(meta["date"]), slug, body, tags)
