"""Reading a whole file: contacts, and the rows that could not be read."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from importer.rows import Contact, RowError, column_map, contact_from


@dataclass
class ImportResult:
    contacts: list[Contact] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)


def load_contacts(text: str) -> ImportResult:
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    header = next(reader, None)
    if header is None:
        raise RowError(1, "the file is empty")
    columns = column_map(header)
    result = ImportResult()
    seen: set[str] = set()
    for line, row in enumerate(reader, start=2):
        try:
            contact = contact_from(row, columns, line)
        except RowError as exc:
            result.errors.append(exc)
            continue
        if contact.email not in seen:
            seen.add(contact.email)
            result.contacts.append(contact)
    return result
