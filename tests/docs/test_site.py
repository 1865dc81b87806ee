"""The documentation site as a reader gets it: `mkdocs build --strict` (as CI runs it) into
a temporary folder, then two built pages opened in headless Chromium, Debian's package,
and what the browser made of them read back (the page after its scripts ran): the title,
the navigation, a code block, and a row of the configuration reference written from the
settings' own definitions."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from agent.settings.config import Limits
from tests.conftest import IN_CI, import_or_skip_locally

ROOT = Path(__file__).resolve().parents[2]
import_or_skip_locally("mkdocs", "the docs extra: pip install -e '.[docs]', as .ci/setup does")


def strict_build(root: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` of the site at `root`, as CI runs it. Never with --quiet:
    mkdocs counts the warnings strict mode fails on only where it logs them."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict",
         "-f", str(root / "mkdocs.yml"), "-d", str(out)],
        capture_output=True, text=True, cwd=root, env=env, timeout=120,
    )  # fmt: skip


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    built = strict_build(ROOT, out)
    assert built.returncode == 0, built.stdout + built.stderr
    return out


def test_a_broken_link_fails_the_strict_build(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path)
    with (tmp_path / "docs" / "cost.md").open("a") as page:
        page.write("\nSee [the page that is not there](nowhere.md).\n")
    built = strict_build(tmp_path, tmp_path / "site")
    assert built.returncode != 0
    assert "'nowhere.md', but the target is not found" in built.stdout + built.stderr


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        reason = "chromium is not installed (.ci/setup installs Debian's package)"
        if IN_CI:
            pytest.fail(f"CI=true and {reason}", pytrace=False)
        pytest.skip(reason)
    return found


def rendered(page: Path) -> Page:
    """The page's DOM once Chromium loaded it and ran its scripts."""
    dumped = subprocess.run(
        [chromium(), "--headless", "--no-sandbox", "--disable-gpu",
         "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert dumped.returncode == 0 and "</html>" in dumped.stdout, dumped.stderr[-2000:]
    parsed = Page()
    parsed.feed(dumped.stdout)
    return parsed


class Page(HTMLParser):
    """What a reader sees of a built page: its title, the primary navigation's entries,
    its code blocks and its table cells; and whether its scripts ran."""

    def __init__(self) -> None:
        super().__init__()
        self.title = ""
        self.nav: list[str] = []
        self.code: list[str] = []
        self.cells: list[str] = []
        self.scripted = False
        self._in: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if tag == "html":
            self.scripted = "no-js" not in classes and "js" in classes
        opened = {"title": "title", "pre": "code", "td": "cell"}.get(tag)
        if tag == "a" and "md-nav__link" in classes:
            opened = "nav"
        if opened:
            self._in.append(opened)
            self._text(opened, "", new=True)

    def handle_endtag(self, tag: str) -> None:
        closing = {"title": "title", "pre": "code", "td": "cell", "a": "nav"}.get(tag)
        if self._in and self._in[-1] == closing:
            self._in.pop()

    def handle_data(self, data: str) -> None:
        for kind in self._in:
            self._text(kind, data)

    def _text(self, kind: str, data: str, new: bool = False) -> None:
        if kind == "title":
            self.title += data
            return
        bucket = {"nav": self.nav, "code": self.code, "cell": self.cells}[kind]
        if new:
            bucket.append("")
        else:
            bucket[-1] += data


def test_the_headless_page_shows_its_title_the_navigation_and_its_example(site: Path) -> None:
    page = rendered(site / "headless" / "index.html")
    assert page.scripted, "the theme's scripts did not run"
    assert page.title.strip() == "Headless: kiln run - kiln"
    nav = [" ".join(entry.split()) for entry in page.nav]
    for entry in (
        "Getting started",
        "The sandbox and trust",
        "Configuration reference",
        "Benchmarks",
    ):
        assert entry in nav, nav
    assert any("kiln run" in block and "--output-format json" in block for block in page.code)
    assert "130" in [cell.strip() for cell in page.cells]  # the exit codes' table


def test_the_configuration_page_shows_each_setting_with_its_own_description(site: Path) -> None:
    page = rendered(site / "configuration" / "index.html")
    assert page.title.strip() == "Configuration reference - kiln"
    cells = [" ".join(cell.split()) for cell in page.cells]
    described = Limits.__dataclass_fields__["max_steps"].metadata["doc"]
    row = cells.index("max_steps")
    assert cells[row + 1 : row + 4] == ["50", described, "KILN_MAX_STEPS"]
