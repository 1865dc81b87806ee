"""Must hold: an eval task made from a real project gets the project's sdist by name and
version (pip, the package index), checked by the sha256 its task.toml keeps, unpacked to
the parts it keeps with its bug applied, once: the next checkout needs no index. An index
that cannot be reached, a file with another sha256 or a `[package]` missing a field is one
sentence, and leaves no tree behind."""

from __future__ import annotations

import shutil
import tarfile
from pathlib import Path

import pytest

from agent.errors import UsageError
from agent.local import sources
from agent.local.bundled import BundledTask, checkout, tasks_in
from agent.settings import paths

REALWORLD = Path(__file__).parents[2] / "bench" / "eval" / "realworld"
UNREACHABLE = {"PIP_INDEX_URL": "http://127.0.0.1:9/simple", "PIP_RETRIES": "0",
               "PIP_TIMEOUT": "2", "PIP_FIND_LINKS": "", "PIP_NO_INDEX": ""}  # fmt: skip


@pytest.fixture
def task() -> BundledTask:
    (found,) = tasks_in(REALWORLD)
    assert found.package is not None
    return found


def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in UNREACHABLE.items():
        if value:
            monkeypatch.setenv(name, value)
        else:
            monkeypatch.delenv(name, raising=False)


def test_the_tree_is_the_sdists_kept_parts_with_the_bug_and_is_made_once(
    task: BundledTask, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert task.package is not None
    repo = checkout(task, tmp_path / "repo")
    assert sorted(p.name for p in repo.iterdir() if p.name != ".git") == sorted(task.package.keep)
    (sdist,) = (paths.cache_dir() / "eval-sources" / "sdists").iterdir()
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path / "sdist", filter="data")
    (top,) = (tmp_path / "sdist").iterdir()
    original = (top / "more_itertools" / "more.py").read_text().splitlines()
    bugged = (repo / "more_itertools" / "more.py").read_text().splitlines()
    changed = [(a, b) for a, b in zip(original, bugged, strict=True) if a != b]
    assert [b.strip() for _, b in changed] == ["yield i == 1, False, a"]  # bug.patch, only
    assert (repo / "tests" / "test_more.py").read_bytes() == (
        top / "tests" / "test_more.py"
    ).read_bytes()

    _offline(monkeypatch)  # the second checkout reads the cache
    again = checkout(task, tmp_path / "again")
    assert (again / "more_itertools" / "more.py").read_text().splitlines() == bugged


def test_an_unreachable_index_is_one_sentence(
    task: BundledTask, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _offline(monkeypatch)
    with pytest.raises(sources.SourceError) as said:
        checkout(task, tmp_path / "repo")
    assert said.value.message.startswith("more-itertools==10.5.0, which this eval task is made")
    assert "could not be downloaded with pip" in said.value.message
    assert "\n" not in said.value.message and not (tmp_path / "repo").exists()


def test_a_file_with_another_sha256_is_refused_and_nothing_is_unpacked(
    task: BundledTask, tmp_path: Path
) -> None:
    copy = tmp_path / "task"
    shutil.copytree(task.source, copy)
    toml = (copy / "task.toml").read_text()
    assert task.package is not None and task.package.sha256 in toml
    (copy / "task.toml").write_text(toml.replace(task.package.sha256, "0" * 64))
    (forged,) = tasks_in(tmp_path)
    with pytest.raises(sources.SourceError, match=r"has sha256 5482bf.*, not the 0000"):
        checkout(forged, tmp_path / "repo")
    made = paths.cache_dir() / "eval-sources"
    assert [p.name for p in made.iterdir()] == ["sdists"]
    assert list((made / "sdists").iterdir()) == []


def test_a_package_table_missing_a_field_is_one_sentence(tmp_path: Path) -> None:
    task = tmp_path / "broken"
    task.mkdir()
    (task / "task.toml").write_text(
        'title = "t"\nprompt = "p"\ntest_command = "true"\n\n'
        '[package]\nname = "more-itertools"\nversion = "10.5.0"\n'
    )
    with pytest.raises(UsageError, match=r"\[package\] needs name, version and sha256"):
        tasks_in(tmp_path)
