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
import shutil
import subprocess
import tempfile
from pathlib import Path

from agent.errors import KilnError
from agent.vcs import ledger
from agent.vcs.journal import Journal
from agent.vcs.patches import BadQuoting, FilePatch, diff_bytes, parse_patches


class HostChanged(KilnError):
    """The host's copy of a touched file differs from what the sandbox started from."""


class ApplyFailed(KilnError):
    """`git apply` refused the diff."""


class UnsafePatch(KilnError):
    """The diff would make the working tree reach outside itself (a symlink out, .git)."""


def blob_id(path: Path) -> str | None:
    """git's blob id of what is at `path` now (None when nothing is there)."""
    if os.path.islink(path):
        data = os.fsencode(os.readlink(path))
    elif path.is_file():
        data = path.read_bytes()
    else:
        return None
    return _blob_of(data)


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
    own links and the ones the diff creates), or a link whose target does either. A link
    renamed keeps the target it has on the host; a link's target read from the diff must
    hash to the blob id the diff names, so no misreading of the diff can pass a link."""
    links = {p.new_path: p.symlink_to for p in patches if p.symlink_to is not None and p.new_path}
    refused: list[str] = []
    for patch in patches:
        for path in dict.fromkeys(p for p in (patch.old_path, patch.new_path) if p):
            where = _resolved(repo, links, posixpath.dirname(path))
            if where is None:
                refused.append(f"{_shown(path)} (through a link that leads outside the repository)")
            elif _inside_git(posixpath.join(where, posixpath.basename(path))):
                refused.append(f"{_shown(path)} (inside .git)")
        target = _link_target(repo, patch)
        if target is None or not patch.new_path:
            continue
        name = _shown(patch.new_path)
        if patch.new_blob and not _blob_of(target.encode("utf-8", "surrogateescape")).startswith(
            patch.new_blob
        ):
            refused.append(f"{name} (a link whose target kiln could not read)")
            continue
        where = _resolved(repo, links, posixpath.dirname(patch.new_path))
        pointed = (
            None
            if target.startswith("/") or where is None
            else _resolved(repo, links, posixpath.join(where, target))
        )
        if pointed is None:
            refused.append(f"{name} (a link to {_shown(target)}, outside the repository)")
        elif _inside_git(pointed):
            refused.append(f"{name} (a link into .git)")
    return refused


def _shown(name: str) -> str:
    """A name as a person can read it on one line: quoted when it holds a control
    character or a quote, as git shows it."""
    odd = any(not c.isprintable() or c in '"\\' for c in name)
    return repr(name) if odd else name


def _link_target(repo: Path, patch: FilePatch) -> str | None:
    """What the new side links to: the diff's own target, or for a link renamed without a
    change, the target it has on the host."""
    if patch.symlink_to is not None:
        return patch.symlink_to
    old = patch.old_path
    if old and patch.new_path != old and os.path.islink(repo / old):
        return os.readlink(repo / old)
    return None


def _blob_of(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


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


def apply_to_host_sync(
    repo: Path, diff_text: str, *, three_way: bool = False, session: str = ""
) -> list[str]:
    """Apply `diff_text` to the working tree at `repo`, journalled (`vcs.journal`): a kill
    half way is finished or rolled back by the next kiln command. With `session`, the
    change set is kept in the ledger before the journal goes."""
    repo = Path(repo)
    if not diff_text.strip():
        return []
    patches = _read(repo, diff_text)
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
    paths = touched_paths(patches)
    journal = Journal.begin(repo, session, diff_text, paths)
    try:
        _write(repo, diff_text, patches, three_way and bool(conflicts), journal.lock)
    except ApplyFailed:  # git apply writes all or nothing (a merge leaves its markers)
        journal.close()
        raise
    except BaseException:  # stopped half way: the next kiln command settles the journal
        journal.release()
        raise
    journal.written()
    if session:
        ledger.record(repo, ledger.Entry(session, diff_text, paths, time=journal.time))
    journal.close()
    return paths


def _write(repo: Path, diff_text: str, patches: list[FilePatch], merge: bool, lock: int) -> None:
    """`git apply`, handed the journal's lock: a git left writing when kiln is killed
    holds it until it ends, so no other kiln rolls back under it."""
    args = ["git", "apply", "--binary", "--whitespace=nowarn"]
    with tempfile.TemporaryDirectory(prefix="kiln-apply-") as tmp:
        env = None
        if merge:
            # --3way works through an index; give it a private one that matches the work
            # tree, so the merge sees the person's edits and their real index stays as is.
            env = _private_index(repo, Path(tmp) / "index", touched_paths(patches))
            args.append("--3way")
        untouched = "nothing was written: bring the repository back to where the session started."
        if env is None:
            # `git apply` is all or nothing by itself: one run both checks and writes.
            _git_apply(repo, args, diff_text, env, untouched, lock)
        else:
            _git_apply(repo, [*args, "--check"], diff_text, env, untouched, lock)
            merged = "resolve the conflict markers git left, then continue."
            _git_apply(repo, args, diff_text, env, merged, lock)


def _read(repo: Path, diff_text: str) -> list[FilePatch]:
    """The diff's patches, read by kiln and checked against how `git apply` itself reads
    them: the checks judge exactly the names git will write, or nothing is written."""
    unreadable = UnsafePatch(
        "Nothing was written: kiln could not read the file names in the changes the way git "
        "does; look at them with /diff and rename the oddly named files in the sandbox."
    )
    try:
        patches = parse_patches(diff_text)
    except BadQuoting:
        raise unreadable from None
    listed = subprocess.run(
        ["git", "apply", "--numstat", "-z", "-"],
        cwd=repo,
        input=diff_bytes(diff_text),
        capture_output=True,
    )
    # Each record is "ADDED\tDELETED\tNAME\0", NAME the new name (the old for a deletion).
    records = listed.stdout.split(b"\0")[:-1]
    git_names = [os.fsdecode(r.split(b"\t", 2)[-1]) for r in records]
    if listed.returncode == 0 and git_names != [patch.path for patch in patches]:
        raise unreadable
    return patches


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
    repo: Path,
    args: list[str],
    diff_text: str,
    env: dict[str, str] | None,
    advice: str,
    lock: int,
) -> None:
    done = subprocess.run(
        [*args, "-"],
        cwd=repo,
        input=diff_bytes(diff_text),
        capture_output=True,
        env=env,
        pass_fds=(lock,),
    )
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        reason = next(
            (line for line in lines if line.startswith("error")), lines[0] if lines else ""
        )
        raise ApplyFailed(f"The diff did not apply cleanly to {repo} ({reason}); {advice}")


async def apply_to_host(
    repo: Path, diff_text: str, *, three_way: bool = False, session: str = ""
) -> list[str]:
    """Apply `diff_text` to the working tree at `repo`; returns the paths it wrote. With
    `session`, the change set is kept in the ledger too.

    The starting state of each file is read from the diff itself (its index lines).
    """
    return await asyncio.to_thread(
        apply_to_host_sync, repo, diff_text, three_way=three_way, session=session
    )
