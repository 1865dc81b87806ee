import pytest

from importer.load import load_contacts
from importer.rows import RowError

CSV = """Full Name,E-mail,Mobile
Ada Lovelace,ADA@example.org,+44 20 7946 0000

Bo Diddley,bo@example.com,

Ada Again,ada@example.org,
Broken,not-an-address,
"""


def test_blank_lines_are_skipped_and_duplicates_dropped():
    result = load_contacts(CSV)
    assert [c.name for c in result.contacts] == ["Ada Lovelace", "Bo Diddley"]
    assert result.contacts[0].phone == "+442079460000"


def test_bad_rows_are_reported_with_their_line():
    result = load_contacts(CSV)
    assert [e.line for e in result.errors] == [7]


def test_header_needs_email():
    with pytest.raises(RowError):
        load_contacts("name,phone\nAda,1\n")
