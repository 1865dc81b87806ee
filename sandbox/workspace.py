"""Host-side preparation of a sandbox's workspace: state dir, overlay layers or a copy.

What the sandbox sees at /workspace: tracked files (with the person's uncommitted edits),
untracked files that are not ignored, and `.git`. Files git ignores (`.env`, build output,
`node_modules`, virtualenvs) are hidden: they often hold secrets, and host-built artefacts
rarely work inside the image anyway. With an overlay they are hidden by whiteouts in the
upper layer (needs root on the host; otherwise they stay visible, read-only to the host);
the copy fallback simply does not copy them.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
from pathlib import Path

from sandbox import gitstate
from sandbox.frozen import frozen


def state_root() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "kiln" / "sandboxes"


def new_session_id() -> str:
    return os.urandom(6).hex()


@frozen
class Layout:
    """Every host path one sandbox uses, all under its own state dir."""

    root: Path

    @property
    def upper(self) -> Path:
        return self.root / "upper"

    @property
    def work(self) -> Path:
        return self.root / "work"

    @property
    def copy(self) -> Path:
        return self.root / "copy"

    @property
    def kiln_git(self) -> Path:
        return self.root / "kiln-git"

    @property
    def outputs(self) -> Path:
        return self.root / "outputs"

    @property
    def services(self) -> Path:
        """The services' logs (sandbox/services.py), written inside by the command server."""
        return self.root / "services"


def make_layout(state_dir: Path | None, session_id: str, repo: Path) -> Layout:
    layout = Layout((state_dir or state_root()) / session_id)
    layout.root.mkdir(parents=True, exist_ok=True, mode=0o700)
    layout.outputs.mkdir(exist_ok=True)
    layout.services.mkdir(exist_ok=True)
    gitstate.init_kiln_git(layout.kiln_git, repo)
    uid, gid = repo_owner(repo)
    if os.geteuid() == 0:
        # The sandbox user (the repo's owner) must be able to enter and write these.
        for path in (layout.root, layout.kiln_git, layout.services):
            os.chown(path, uid, gid)
        _chown_tree(layout.kiln_git, uid, gid)
    return layout


def repo_owner(repo: Path) -> tuple[int, int]:
    st = repo.stat()
    return st.st_uid, st.st_gid


def _git_list(repo: Path, *args: str) -> list[str] | None:
    """NUL-separated `git ls-files` output, or None when `repo` is not a git work tree."""
    if not (repo / ".git").exists():
        return None
    proc = subprocess.run(
        ["git", "-c", "core.quotepath=off", "-C", str(repo), "ls-files", "-z", *args],
        capture_output=True,
    )
    if proc.returncode != 0:
        return None
    return [p for p in proc.stdout.decode("utf-8", "surrogateescape").split("\0") if p]


def ignored_paths(repo: Path) -> list[str]:
    """Ignored files and directories (directories once, ending in '/')."""
    return _git_list(repo, "--others", "--ignored", "--exclude-standard", "--directory") or []


def overlay_options(repo: Path, layout: Layout) -> str | None:
    """The `o=` of an overlay mount, or None when a path cannot be expressed in it."""
    paths = (str(repo), str(layout.upper), str(layout.work))
    if any(ch in p for p in paths for ch in ",:\\\n"):
        return None
    return f"lowerdir={repo},upperdir={layout.upper},workdir={layout.work}"


def prepare_overlay(repo: Path, layout: Layout) -> bool:
    """Create the upper layer; returns whether ignored files could be hidden."""
    layout.upper.mkdir(exist_ok=True)
    layout.work.mkdir(exist_ok=True)
    _copy_attrs(repo, layout.upper)
    if os.geteuid() != 0:
        return False
    hidden: set[str] = set()
    for rel in ignored_paths(repo):
        rel = rel.rstrip("/")
        if not rel or rel == ".git" or rel.startswith(".git/"):
            continue
        # A folder with its own .gitignore (pytest's cache) is listed, then its files:
        # the folder's whiteout hides them already, and nothing can be made under it.
        if any(parent.as_posix() in hidden for parent in Path(rel).parents):
            continue
        hidden.add(rel)
        target = layout.upper / rel
        _make_parents(repo, layout.upper, Path(rel).parent)
        # A 0/0 character device is overlayfs's whiteout: the lower entry is hidden.
        with contextlib.suppress(FileExistsError):
            os.mknod(target, stat.S_IFCHR | 0o600, os.makedev(0, 0))
    return True


def _make_parents(repo: Path, upper: Path, rel_dir: Path) -> None:
    """Parent dirs in the upper layer override the lower ones' owner and mode: copy them."""
    current = Path()
    for part in rel_dir.parts:
        current = current / part
        dst = upper / current
        if not dst.exists():
            dst.mkdir()
            _copy_attrs(repo / current, dst)


def _copy_attrs(src: Path, dst: Path) -> None:
    st = src.stat()
    if os.geteuid() == 0:
        os.chown(dst, st.st_uid, st.st_gid)
    os.chmod(dst, stat.S_IMODE(st.st_mode))
    os.utime(dst, ns=(st.st_atime_ns, st.st_mtime_ns))


def prepare_copy(repo: Path, layout: Layout) -> Path:
    """The fallback: a plain copy of what the sandbox may see (no ignored files)."""
    dst = layout.copy
    if dst.exists():
        return dst
    dst.mkdir()
    _copy_attrs(repo, dst)
    files = _git_list(repo, "--cached", "--others", "--exclude-standard")
    if files is None:
        shutil.copytree(repo, dst, symlinks=True, dirs_exist_ok=True)
    else:
        for rel in dict.fromkeys(files):
            src = repo / rel
            if not os.path.lexists(src):
                continue  # deleted in the work tree but still in the index
            target = dst / rel
            _make_parents(repo, dst, Path(rel).parent)
            if src.is_dir() and not src.is_symlink():  # a submodule checkout
                shutil.copytree(src, target, symlinks=True)
            else:
                shutil.copy2(src, target, follow_symlinks=False)
        shutil.copytree(repo / ".git", dst / ".git", symlinks=True)
    if os.geteuid() == 0:
        uid, gid = repo_owner(repo)
        _chown_tree(dst, uid, gid, only_root_owned=True)
    return dst


def _chown_tree(path: Path, uid: int, gid: int, only_root_owned: bool = False) -> None:
    for dirpath, dirnames, filenames in os.walk(path):
        for name in [*dirnames, *filenames, ""]:
            p = os.path.join(dirpath, name) if name else dirpath
            if only_root_owned and os.lstat(p).st_uid != 0:
                continue
            os.lchown(p, uid, gid)


def remove_layout(layout: Layout) -> None:
    shutil.rmtree(layout.root, ignore_errors=True)
