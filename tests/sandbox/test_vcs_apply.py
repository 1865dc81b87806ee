"""apply_to_host on real repositories: binary-safe, and never over the person's edits."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from agent.vcs.apply import ApplyFailed, HostChanged, UnsafePatch, apply_to_host, parse_patches
from tests.conftest import make_git_repo


def sandbox_diff(repo: Path, tmp_path: Path, script: str) -> str:
    """Make changes in a copy (as a sandbox would) and return its binary diff vs the start."""
    work = tmp_path / "work"
    shutil.copytree(repo, work, symlinks=True)
    git = ["git", "-C", str(work)]
    subprocess.run([*git, "add", "-A"], check=True)
    start = subprocess.run([*git, "write-tree"], check=True, capture_output=True, text=True)
    subprocess.run(["bash", "-c", script], cwd=work, check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    out = subprocess.run(
        [*git, "diff", "--cached", "--binary", "-M", start.stdout.strip()],
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout


@pytest.fixture
def host(tmp_path: Path) -> Path:
    repo = make_git_repo(
        tmp_path / "host", {"a.txt": "one\ntwo\n", "b.bin": b"\x00\x01", "c.txt": "c\n"}
    )
    (repo / "a.txt").write_text("one\ntwo\nuncommitted\n")  # part of the sandbox's start
    return repo


async def test_applies_text_binary_rename_delete_and_mode(host: Path, tmp_path: Path) -> None:
    diff = sandbox_diff(
        host,
        tmp_path,
        "echo three >> a.txt; printf '\\xff\\x00' > b.bin; git mv c.txt d.txt;"
        " printf 'x\\0y' > e.bin; chmod +x d.txt",
    )
    written = await apply_to_host(host, diff)
    assert set(written) == {"a.txt", "b.bin", "c.txt", "d.txt", "e.bin"}
    assert (host / "a.txt").read_text() == "one\ntwo\nuncommitted\nthree\n"
    assert (host / "b.bin").read_bytes() == b"\xff\x00"
    assert (host / "e.bin").read_bytes() == b"x\0y"
    assert not (host / "c.txt").exists() and (host / "d.txt").stat().st_mode & 0o100
    staged = subprocess.run(
        ["git", "diff", "--cached", "--name-only"], cwd=host, capture_output=True, text=True
    )
    assert staged.stdout == ""  # the person's index is left alone


async def test_refuses_when_the_host_changed_a_touched_file(host: Path, tmp_path: Path) -> None:
    diff = sandbox_diff(host, tmp_path, "echo three >> a.txt; echo new > n.txt")
    (host / "a.txt").write_text("one\ntwo\nuncommitted\nthe person kept typing\n")
    with pytest.raises(HostChanged) as info:
        await apply_to_host(host, diff)
    assert "a.txt changed" in info.value.message and "nothing was written" in info.value.message
    assert (host / "a.txt").read_text().endswith("the person kept typing\n")
    assert not (host / "n.txt").exists()  # all or nothing


async def test_refuses_when_the_host_created_the_same_new_file(host: Path, tmp_path: Path) -> None:
    diff = sandbox_diff(host, tmp_path, "echo sandbox > n.txt")
    (host / "n.txt").write_text("person\n")
    with pytest.raises(HostChanged):
        await apply_to_host(host, diff)
    assert (host / "n.txt").read_text() == "person\n"


async def test_unrelated_host_edits_are_fine(host: Path, tmp_path: Path) -> None:
    diff = sandbox_diff(host, tmp_path, "echo three >> a.txt")
    (host / "c.txt").write_text("edited elsewhere\n")
    assert await apply_to_host(host, diff) == ["a.txt"]
    assert (host / "c.txt").read_text() == "edited elsewhere\n"


async def test_three_way_merges_committed_content(host: Path, tmp_path: Path) -> None:
    subprocess.run(["git", "-C", str(host), "checkout", "-q", "--", "a.txt"], check=True)
    diff = sandbox_diff(host, tmp_path, "sed -i 's/one/ONE/' a.txt")
    (host / "a.txt").write_text("one\ntwo\nhost line\n")
    with pytest.raises(HostChanged):
        await apply_to_host(host, diff)
    await apply_to_host(host, diff, three_way=True)
    assert (host / "a.txt").read_text() == "ONE\ntwo\nhost line\n"


async def test_a_diff_that_does_not_apply_is_one_sentence(host: Path) -> None:
    bogus = "diff --git a/zz.txt b/zz.txt\n--- a/zz.txt\n+++ b/zz.txt\n@@ -1 +1 @@\n-a\n+b\n"
    with pytest.raises((ApplyFailed, HostChanged)) as info:
        await apply_to_host(host, bogus)
    assert "\n" not in info.value.message


def test_parse_handles_spaces_and_renames() -> None:
    text = (
        "diff --git a/my file.txt b/my file.txt\nindex 1234567..89abcde 100644\n"
        "diff --git a/old.txt b/new.txt\nsimilarity index 100%\nrename from old.txt\n"
        "rename to new.txt\n"
    )
    first, second = parse_patches(text)
    assert (first.old_path, first.old_blob) == ("my file.txt", "1234567")
    assert (second.old_path, second.new_path, second.old_blob) == ("old.txt", "new.txt", None)


@pytest.mark.parametrize(
    ("script", "said"),
    [
        ("ln -s /etc/passwd pw", "pw (a link to /etc/passwd, outside the repository)"),
        ("mkdir -p sub && ln -s ../../../outside sub/up", "outside the repository"),
        ("ln -s .git/config cfg", "cfg (a link into .git)"),
        ("rm a.txt && ln -s /etc a.txt", "a.txt (a link to /etc, outside the repository)"),
    ],
)
async def test_links_out_of_the_repository_are_refused(
    host: Path, tmp_path: Path, script: str, said: str
) -> None:
    before = {p: p.read_bytes() for p in host.rglob("*") if p.is_file() and ".git" not in p.parts}
    diff = sandbox_diff(host, tmp_path, script)
    with pytest.raises(UnsafePatch) as refused:
        await apply_to_host(host, diff)
    assert said in refused.value.message and "Nothing was written" in refused.value.message
    after = {p: p.read_bytes() for p in host.rglob("*") if p.is_file() and ".git" not in p.parts}
    assert after == before and not any(p.is_symlink() for p in host.rglob("*"))


async def test_a_link_inside_the_repository_applies(host: Path, tmp_path: Path) -> None:
    diff = sandbox_diff(host, tmp_path, "mkdir sub && ln -s ../a.txt sub/a-link")
    assert await apply_to_host(host, diff) == ["sub/a-link"]
    assert (host / "sub" / "a-link").is_symlink()


NEW_FILE = (
    "diff --git a/{p} b/{p}\nnew file mode 100644\nindex 0000000..257cc56\n"
    "--- /dev/null\n+++ b/{p}\n@@ -0,0 +1 @@\n+foo\n"
)


@pytest.mark.parametrize(
    ("link", "path", "said"),
    [
        (".git", "docs/hooks/pre-commit", "docs/hooks/pre-commit (inside .git)"),
        ("/tmp", "docs/planted", "through a link that leads outside the repository"),
        ("../..", "docs/planted", "through a link that leads outside the repository"),
        (None, ".GIT/config", ".GIT/config (inside .git)"),
    ],
)
async def test_the_git_guard_follows_the_work_trees_links(
    host: Path, link: str | None, path: str, said: str
) -> None:
    # A link of the person's own (untracked) that a diff could write through.
    if link is not None:
        (host / "docs").symlink_to(link)
    with pytest.raises(UnsafePatch) as refused:
        await apply_to_host(host, NEW_FILE.format(p=path))
    assert said in refused.value.message
    assert not (host / ".git" / "hooks" / "pre-commit").exists()
