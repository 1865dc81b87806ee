import pytest

from dusage.report import render, scan, totals
from dusage.sizes import humanize, parse_size


@pytest.mark.parametrize(
    "n, text",
    [(0, "0 B"), (1023, "1023 B"), (1024, "1.0 KiB"), (1536, "1.5 KiB"), (5 * 1024**3, "5.0 GiB")],
)
def test_humanize(n, text):
    assert humanize(n) == text


def test_negative_size_is_an_error():
    with pytest.raises(ValueError):
        humanize(-1)


@pytest.mark.parametrize("text, n", [("512", 512), ("1.5K", 1536), ("200 MiB", 200 * 1024**2), ("2g", 2 * 1024**3)])
def test_parse_size(text, n):
    assert parse_size(text) == n


def test_parse_size_rejects_junk():
    with pytest.raises(ValueError):
        parse_size("lots")


def test_totals_group_by_top_folder():
    sums = totals([("src/a.py", 100), ("src/b/c.py", 50), ("README", 10)])
    assert sums == {"src": 150, "README": 10}


def test_render_biggest_first_with_total():
    out = render({"docs": 2048, "src": 3 * 1024**2, "x": 10}, min_size=100)
    assert out.splitlines() == ["   3.0 MiB  src", "   2.0 KiB  docs", "   3.0 MiB  total"]


def test_scan(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "f.bin").write_bytes(b"x" * 300)
    (tmp_path / "g.txt").write_bytes(b"y" * 7)
    assert sorted(scan(str(tmp_path))) == [("a/f.bin", 300), ("g.txt", 7)]
