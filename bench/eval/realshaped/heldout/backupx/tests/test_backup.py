import os

import pytest

from snapback.backup import backup, load_manifest
from snapback.cli import main
from snapback.files import iter_files


@pytest.fixture
def source(tmp_path):
    root = tmp_path / "src"
    (root / "docs").mkdir(parents=True)
    (root / "a.txt").write_text("a")
    (root / "docs" / "b.md").write_text("b")
    (root / "docs" / "c.md").write_text("c")
    return root


def test_iter_files(source):
    os.symlink(source / "a.txt", source / "link.txt")
    assert iter_files(source) == ["a.txt", "docs/b.md", "docs/c.md"]


def test_first_backup_copies_everything(source, tmp_path):
    dest = tmp_path / "dest"
    assert backup(source, dest) == ["a.txt", "docs/b.md", "docs/c.md"]
    assert (dest / "docs" / "b.md").read_text() == "b"
    assert set(load_manifest(dest)) == {"a.txt", "docs/b.md", "docs/c.md"}


def test_second_backup_copies_only_changes(source, tmp_path):
    dest = tmp_path / "dest"
    backup(source, dest)
    (source / "docs" / "b.md").write_text("bigger b")
    (source / "new.txt").write_text("n")
    assert backup(source, dest) == ["docs/b.md", "new.txt"]


def test_cli_list_copies_nothing(source, tmp_path, capsys):
    dest = tmp_path / "dest"
    assert main([str(source), str(dest), "--list"]) == 0
    assert capsys.readouterr().out.splitlines() == ["a.txt", "docs/b.md", "docs/c.md"]
    assert not dest.exists()


def test_cli_copy(source, tmp_path, capsys):
    assert main([str(source), str(tmp_path / "dest")]) == 0
    assert capsys.readouterr().out == "copied 3 files\n"
