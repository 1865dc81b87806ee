import pytest

from snapback.cli import main


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    files = [
        "README.md", "notes.tmp", "src/app.js", "src/cache.tmp", "src/lib/util.js",
        "node_modules/left-pad/index.js", "node_modules/x.js", "web/node_modules/y/z.js",
        "build/main.o", "build/main.map", "docs/draft.md", "docs/final.md", "docs/TODO.TMP",
    ]
    for rel in files:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(rel)
    return root


def listed(capsys, root, dest, *extra):
    assert main([str(root), str(dest), "--list", *extra]) == 0
    return capsys.readouterr().out.splitlines()


def test_name_globs_and_folder_names(project, tmp_path, capsys):
    out = listed(capsys, project, tmp_path / "b", "--exclude", "*.tmp", "--exclude", "node_modules")
    assert out == [
        "README.md", "build/main.map", "build/main.o", "docs/TODO.TMP", "docs/draft.md",
        "docs/final.md", "src/app.js", "src/lib/util.js",
    ]


def test_relative_path_patterns(project, tmp_path, capsys):
    out = listed(capsys, project, tmp_path / "b", "--exclude", "build/*.o", "--exclude", "docs/draft.md")
    assert "build/main.o" not in out and "docs/draft.md" not in out
    assert "build/main.map" in out and "docs/final.md" in out and "README.md" in out
    assert len(out) == 11


def test_folder_glob(project, tmp_path, capsys):
    out = listed(capsys, project, tmp_path / "b", "--exclude", "l*")
    assert "src/lib/util.js" not in out
    assert "node_modules/left-pad/index.js" not in out
    assert "src/app.js" in out and "node_modules/x.js" in out


def test_excluded_files_are_not_copied(project, tmp_path, capsys):
    dest = tmp_path / "backup"
    assert main([str(project), str(dest), "--exclude", "node_modules", "--exclude", "*.tmp"]) == 0
    assert capsys.readouterr().out == "copied 8 files\n"
    assert not (dest / "node_modules").exists()
    assert not (dest / "web" / "node_modules").exists()
    assert not (dest / "notes.tmp").exists()
    assert (dest / "src" / "lib" / "util.js").read_text() == "src/lib/util.js"


def test_without_exclude_everything_is_listed(project, tmp_path, capsys):
    assert len(listed(capsys, project, tmp_path / "b")) == 13
