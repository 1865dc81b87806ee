"""One contact from one CSV row, header names matched loosely."""

from __future__ import annotations

import re
from dataclasses import dataclass

ALIASES = {
    "name": ("name", "full name", "display name"),
    "email": ("email", "e-mail", "email address"),
    "phone": ("phone", "mobile", "telephone", "phone number"),
}
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$", re.IGNORECASE)


class RowError(ValueError):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


@dataclass(frozen=True)
class Contact:
    name: str
    email: str
    phone: str = ""


def column_map(header: list[str]) -> dict[str, int]:
    wanted = {}
    for index, title in enumerate(header):
        key = title.strip().lower()
        for field, names in ALIASES.items():
            if key in names:
                wanted[field] = index
    if "name" not in wanted or "email" not in wanted:
        raise RowError(1, "the header needs a name and an e-mail column")
    return wanted


def contact_from(row: list[str], columns: dict[str, int], line: int) -> Contact:
    def cell(field: str) -> str:
        index = columns.get(field)
        return row[index].strip() if index is not None and index < len(row) else ""

    email = cell("email").lower()
    if not _EMAIL.match(email):
        raise RowError(line, f"{email!r} is not an e-mail address")
    return Contact(cell("name"), email, re.sub(r"[^\d+]", "", cell("phone")))
