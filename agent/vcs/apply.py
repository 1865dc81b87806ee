"""Applying an approved sandbox diff to the person's working tree, never over their edits.

The diff comes from `Sandbox.diff()`: a binary `git diff` whose `index OLD..NEW` lines name
the full blob id each touched file had when the sandbox started. Before anything is
written, every touched path on the host is hashed and compared with that id; if the person
changed one meanwhile, kiln refuses (or, with three_way, lets `git apply --3way` merge and
leave conflict markers), so a silent overwrite is impossible. Only the working tree is
written; the person's index and commits are left alone.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import posixpath
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from agent.errors import KilnError

_ZERO = re.compile(r"^0+$")


class HostChanged(KilnError):
    """The host's copy of a touched file differs from what the sandbox started from."""


class ApplyFailed(KilnError):
    """`git apply` refused the diff."""


class UnsafePatch(KilnError):
    """The diff would make the working tree reach outside itself (a symlink out, .git)."""


SYMLINK_MODE = "120000"


@dataclass
class FilePatch:
    old_path: str | None
    new_path: str | None
    old_blob: str | None = None  # None: unknown (pure rename or mode change)
    flags: set[str] = field(default_factory=set)
    symlink_to: str | None = None  # the target, when the new side is a symbolic link


def parse_patches(diff_text: str) -> list[FilePatch]:
    patches: list[FilePatch] = []
    current: FilePatch | None = None
    for line in diff_text.splitlines():
        if line.startswith("diff --git "):
            old, new = header_paths(line[len("diff --git ") :])
            current = FilePatch(old, new)
            patches.append(current)
        elif current is None:
            continue
        elif line.startswith("index "):
            old_blob = line.split()[1].split("..")[0]
            current.old_blob = None if _ZERO.match(old_blob) else old_blob
            if line.endswith(" " + SYMLINK_MODE):
                current.symlink_to = ""
        elif line.startswith(("new file mode", "deleted file mode")):
            current.flags.add(line.split()[0])
            if line.startswith("new") and line.endswith(SYMLINK_MODE):
                current.symlink_to = ""
        elif line.startswith("new mode") and line.endswith(SYMLINK_MODE):
            current.symlink_to = ""
        elif line.startswith("+") and not line.startswith("+++") and current.symlink_to == "":
            current.symlink_to = line[1:]  # a link's content is its target, on one line
        elif line.startswith("rename from "):
            current.old_path = line[len("rename from ") :]
        elif line.startswith("rename to "):
            current.new_path = line[len("rename to ") :]
    return patches


def header_paths(rest: str) -> tuple[str, str]:
    """`a/X b/Y` where X == Y unless renamed; rename lines correct it when they follow."""
    if rest.startswith("a/") and " b/" in rest:
        half = (len(rest) - 1) // 2
        if rest[half] == " " and rest[2:half] == rest[half + 3 :]:
            return rest[2:half], rest[half + 3 :]
        old, _, new = rest.partition(" b/")
        return old[2:], new
    return rest, rest


def blob_id(path: Path) -> str | None:
    """git's blob id of what is at `path` now (None when nothing is there)."""
    if os.path.islink(path):
        data = os.readlink(path).encode()
    elif path.is_file():
        data = path.read_bytes()
    else:
        return None
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def host_conflicts(repo: Path, patches: list[FilePatch]) -> list[str]:
    """Paths the person changed on the host since the sandbox's starting state."""
    changed: list[str] = []
    for patch in patches:
        if "new" in patch.flags:
            if patch.new_path and os.path.lexists(repo / patch.new_path):
                changed.append(patch.new_path)
            continue
        if patch.old_path is None:
            continue
        now = blob_id(repo / patch.old_path)
        if now is None or (patch.old_blob and not now.startswith(patch.old_blob)):
            changed.append(patch.old_path)
        if (
            patch.new_path
            and patch.new_path != patch.old_path
            and os.path.lexists(repo / patch.new_path)
        ):
            changed.append(patch.new_path)
    return changed


def unsafe_paths(repo: Path, patches: list[FilePatch]) -> list[str]:
    """Why each patch that must never reach the working tree is refused: a path that lands
    inside .git or outside the repository once symbolic links are followed (the work tree's
    own links and the ones the diff creates), or a link whose target does either."""
    links = {p.new_path: p.symlink_to for p in patches if p.symlink_to is not None and p.new_path}
    refused: list[str] = []
    for patch in patches:
        path = patch.new_path or patch.old_path or ""
        where = _resolved(repo, links, posixpath.dirname(path))
        where = posixpath.join(where, posixpath.basename(path)) if where is not None else None
        if where is None:
            refused.append(f"{path} (through a link that leads outside the repository)")
        elif _inside_git(where):
            refused.append(f"{path} (inside .git)")
        elif patch.symlink_to is not None and patch.new_path:
            target = patch.symlink_to
            pointed = (
                None
                if target.startswith("/")
                else _resolved(repo, links, posixpath.join(posixpath.dirname(where), target))
            )
            if pointed is None:
                refused.append(f"{path} (a link to {target}, outside the repository)")
            elif _inside_git(pointed):
                refused.append(f"{path} (a link into .git)")
    return refused


def _resolved(repo: Path, links: dict[str, str], rel: str, depth: int = 0) -> str | None:
    """`rel` with every symbolic link on the way followed, as a path inside the repository,
    or None where it leaves the repository. Links are the diff's own, else the work tree's."""
    parts = [p for p in posixpath.normpath(rel).split("/") if p not in ("", ".")]
    done: list[str] = []
    for index, part in enumerate(parts):
        if part == "..":
            if not done:
                return None
            done.pop()
            continue
        here = "/".join([*done, part])
        target = links.get(here)
        if target is None and os.path.islink(repo / here):
            target = os.readlink(repo / here)
        if target is None:
            done.append(part)
            continue
        if target.startswith("/") or depth > 20:
            return None
        rest = "/".join(parts[index + 1 :])
        joined = posixpath.join(posixpath.dirname(here), target, rest)
        return _resolved(repo, links, joined, depth + 1)
    return "/".join(done)


def _inside_git(path: str) -> bool:
    # Case-insensitive file systems (macOS, Windows) take .GIT for .git.
    head = path.split("/", 1)[0].lower()
    return head == ".git"


def touched_paths(patches: list[FilePatch]) -> list[str]:
    paths: dict[str, None] = {}
    for patch in patches:
        for path in (patch.old_path, patch.new_path):
            if path:
                paths[path] = None
    return list(paths)


def apply_to_host_sync(repo: Path, diff_text: str, *, three_way: bool = False) -> list[str]:
    repo = Path(repo)
    if not diff_text.strip():
        return []
    patches = parse_patches(diff_text)
    refused = unsafe_paths(repo, patches)
    if refused:
        raise UnsafePatch(
            f"Nothing was written: the changes would put {', '.join(refused[:3])} in your "
            "working tree; look at them with /diff and undo that part in the sandbox."
        )
    conflicts = host_conflicts(repo, patches)
    if conflicts and not three_way:
        shown = ", ".join(conflicts[:5]) + (" and more" if len(conflicts) > 5 else "")
        raise HostChanged(
            f"{shown} changed in {repo} since the sandbox started; nothing was written: "
            "commit or stash your edits and apply again, or apply with three-way merge."
        )
    args = ["git", "apply", "--binary", "--whitespace=nowarn"]
    with tempfile.TemporaryDirectory(prefix="kiln-apply-") as tmp:
        env = None
        if three_way and conflicts:
            # --3way works through an index; give it a private one that matches the work
            # tree, so the merge sees the person's edits and their real index stays as is.
            env = _private_index(repo, Path(tmp) / "index", touched_paths(patches))
            args.append("--3way")
        untouched = "nothing was written: bring the repository back to where the session started."
        if env is None:
            # `git apply` is all or nothing by itself: one run both checks and writes.
            _git_apply(repo, args, diff_text, env, untouched)
        else:
            _git_apply(repo, [*args, "--check"], diff_text, env, untouched)
            _git_apply(
                repo, args, diff_text, env, "resolve the conflict markers git left, then continue."
            )
    return touched_paths(patches)


def _private_index(repo: Path, index: Path, paths: list[str]) -> dict[str, str]:
    env = {**os.environ, "GIT_INDEX_FILE": str(index)}
    real = subprocess.run(
        ["git", "rev-parse", "--git-path", "index"], cwd=repo, capture_output=True, text=True
    ).stdout.strip()
    if real and (repo / real).is_file():
        shutil.copyfile(repo / real, index)
    present = [p for p in paths if os.path.lexists(repo / p)]
    subprocess.run(["git", "add", "-f", "--", *present], cwd=repo, env=env, capture_output=True)
    return env


def _git_apply(
    repo: Path, args: list[str], diff_text: str, env: dict[str, str] | None, advice: str
) -> None:
    done = subprocess.run(
        [*args, "-"], cwd=repo, input=diff_text.encode(), capture_output=True, env=env
    )
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        reason = next(
            (line for line in lines if line.startswith("error")), lines[0] if lines else ""
        )
        raise ApplyFailed(f"The diff did not apply cleanly to {repo} ({reason}); {advice}")


async def apply_to_host(repo: Path, diff_text: str, *, three_way: bool = False) -> list[str]:
    """Apply `diff_text` to the working tree at `repo`; returns the paths it wrote.

    The starting state of each file is read from the diff itself (its index lines).
    """
    return await asyncio.to_thread(apply_to_host_sync, repo, diff_text, three_way=three_way)
