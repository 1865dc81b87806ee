"""Must hold: every reader of a diff's names gets the names as they are on disk, whatever
git had to quote (`"`, a tab, a newline, a backslash, bytes that are not UTF-8 or are shown
as octal), and the apply-time checks refuse a link into .git or out of the repository
whatever its name or the shape of its target. Each diff is a real `git diff` of a real
repository, as the sandbox makes it."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from agent.present import changed_paths
from agent.review.diffs import parse_diff
from agent.vcs.apply import UnsafePatch, apply_to_host_sync
from agent.vcs.patches import header_paths, parse_patches, unquote
from tests.conftest import make_git_repo
from tui.diff_parse import diff_for_file, files_in

ODD = [
    'q"x',
    "t\tab",
    "new\nline b",
    "back\\slash",
    "é.txt",
    "x b/y b/z",
    "sp ace",
    "u\u2028v",
    os.fsdecode(b"bad\xffbyte"),
]


def sandbox_diff(repo: Path, tmp_path: Path, make: object, *, quotepath: bool) -> str:
    """Changes made by `make(work)` in a copy, as kiln's own `git diff` against the start
    shows them (binary, renames found), decoded as the sandbox decodes it."""
    work = tmp_path / "work"
    shutil.copytree(repo, work, symlinks=True)
    git = ["git", "-C", str(work), "-c", f"core.quotepath={'on' if quotepath else 'off'}"]
    subprocess.run([*git, "add", "-A"], check=True)
    start = subprocess.run([*git, "write-tree"], check=True, capture_output=True, text=True)
    make(work)  # type: ignore[operator]
    subprocess.run([*git, "add", "-A"], check=True)
    out = subprocess.run(
        [*git, "diff", "--cached", "--binary", "-M", start.stdout.strip()],
        check=True,
        capture_output=True,
    )
    return out.stdout.decode("utf-8", "surrogateescape")


@pytest.fixture
def host(tmp_path: Path) -> Path:
    return make_git_repo(tmp_path / "host", {"keep.txt": "k\n", "x b/y": "moved\n"})


def write_odd_files(work: Path) -> None:
    for name in ODD:
        if name == "x b/y b/z":
            (work / "x b" / "y b").mkdir()
            os.rename(work / "x b" / "y", work / name)  # a rename whose names hold " b/"
        else:
            (work / name).write_text(f"{name!r}\n")


@pytest.mark.parametrize("quotepath", [False, True])
def test_every_reader_gets_the_real_names(host: Path, tmp_path: Path, quotepath: bool) -> None:
    diff = sandbox_diff(host, tmp_path, write_odd_files, quotepath=quotepath)
    assert '"' in diff.split("\n", 1)[0] or "\\" in diff  # git did quote some of them

    patches = parse_patches(diff)
    assert sorted(p.path for p in patches) == sorted(ODD)
    (renamed,) = [p for p in patches if p.old_path and p.old_path != p.new_path]
    assert (renamed.old_path, renamed.new_path) == ("x b/y", "x b/y b/z")
    assert sorted(changed_paths(diff)) == sorted(ODD)
    assert sorted(f.path for f in parse_diff(diff)) == sorted(ODD)
    assert sorted(files_in(diff)) == sorted(ODD)
    assert "+'q\"x'" in diff_for_file(diff, 'q"x')


def test_odd_names_apply_under_their_real_names(host: Path, tmp_path: Path) -> None:
    diff = sandbox_diff(host, tmp_path, write_odd_files, quotepath=True)
    applied = apply_to_host_sync(host, diff)
    assert sorted(applied) == sorted([*ODD, "x b/y"])
    for name in ODD:
        assert (host / name).read_text() == (tmp_path / "work" / name).read_text()


def link(name: str, target: str) -> object:
    return lambda work: os.symlink(target, work / name)


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (link('q"x', ".git/hooks"), "'q\"x' (a link into .git)"),
        (link("t\tab", "../.."), "'t\\tab' (a link to ../.., outside the repository)"),
        (link("nl", "a\n../../.."), "nl (a link to 'a\\n../../..', outside the repository)"),
        (link("pp", "++/../../.."), "pp (a link to ++/../../.., outside the repository)"),
        (link("dash", "--- x\n/../../.."), "outside the repository"),
        (link("e\u2028diff --git ok", "../.."), "outside the repository"),
        (link("o\\101", ".git"), "'o\\\\101' (a link into .git)"),
        (link("sp b", ".git/hooks/pre-commit"), "sp b (a link into .git)"),
    ],
)
def test_links_out_or_into_git_are_refused_whatever_their_names(
    host: Path, tmp_path: Path, make: object, said: str
) -> None:
    diff = sandbox_diff(host, tmp_path, make, quotepath=True)
    with pytest.raises(UnsafePatch) as refused:
        apply_to_host_sync(host, diff)
    assert said in refused.value.message and "\n" not in refused.value.message
    assert sorted(p.name for p in host.iterdir()) == [".git", "keep.txt", "x b"]


def test_a_link_target_is_read_exactly(host: Path, tmp_path: Path) -> None:
    targets = {"multi": "in\nside", "plus": "+++x", "slash": "a\\b", "tab\t": "t\tt"}

    def make(work: Path) -> None:
        for name, target in targets.items():
            os.symlink(target, work / name)

    patches = parse_patches(sandbox_diff(host, tmp_path, make, quotepath=True))
    patch_for = {p.path: p for p in patches}
    assert {name: patch_for[name].symlink_to for name in targets} == targets


def test_unquoting_follows_git() -> None:
    assert unquote('"\\a\\b\\t\\n\\v\\f\\r\\"\\\\"') == '\a\b\t\n\v\f\r"\\'
    assert unquote('"\\303\\251\\377"') == "é" + os.fsdecode(b"\xff")
    assert header_paths('a/sp b "b/r\\"n"') == ("sp b", 'r"n')
    assert header_paths('"a/q\\"x" b/plain') == ('q"x', "plain")
