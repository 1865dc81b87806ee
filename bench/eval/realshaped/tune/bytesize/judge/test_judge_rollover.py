import pytest

from dusage.report import render
from dusage.sizes import humanize


@pytest.mark.parametrize(
    "n, text",
    [
        (1024**2 - 1, "1.0 MiB"),
        (1024**2 - 50, "1.0 MiB"),
        (1024**3 - 1, "1.0 GiB"),
        (1024**4 - 1000, "1.0 TiB"),
    ],
)
def test_sizes_that_round_to_1024_roll_over(n, text):
    assert humanize(n) == text


@pytest.mark.parametrize(
    "n, text",
    [
        (1023, "1023 B"),
        (1048474, "1023.9 KiB"),
        (1024**2, "1.0 MiB"),
        (3 * 1024**2 + 1, "3.0 MiB"),
        (2048 * 1024**4, "2048.0 TiB"),
    ],
)
def test_other_sizes_unchanged(n, text):
    assert humanize(n) == text


def test_report_uses_the_rolled_over_unit():
    out = render({"cache": 1024**2 - 1})
    assert out.splitlines()[0] == "   1.0 MiB  cache"
