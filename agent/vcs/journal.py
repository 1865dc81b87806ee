"""An apply's journal, so that a kiln killed while it writes the working tree (kill -9, a
power cut) never leaves it half written with nothing to say how to recover.

Before the first file is touched, kiln writes to the repository's `.git/kiln/apply-journal/`
(beside the ledger) what it needs to undo the apply and to finish it: the pre-image of
every path the diff touches (a file's bytes as a git blob, a link's target, its mode; the
paths that did not exist and the folders the apply will make), the session and the diff
for the ledger; all fsynced, `journal.json` last, so its presence means the rest is whole.
Once `git apply` has written everything a `written` mark is added; the journal goes once
the ledger holds the change set. A lock held for the whole apply tells a journal whose
process lives (an apply under way) from one whose process died.

The next kiln command in that repository (`vcs.interrupted`, checked by the entry point)
then finishes it (`written`: the ledger gets its entry) or rolls it back (every touched path
back to its pre-image, what the apply made removed). Only the touched paths are restored:
the person's other edits and untracked files are never read or written.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import stat
import subprocess
import time
from pathlib import Path
from typing import Any

from agent.errors import KilnError
from agent.vcs import ledger
from agent.vcs.gitcmd import git_dir
from agent.vcs.patches import diff_bytes, diff_from_bytes
from sandbox.frozen import frozen

# Objects kiln writes for the pre-images reach the disk before the apply writes anything;
# "batch" makes that one flush for all of them (git >= 2.37; older gits ignore both).
_DURABLE = ("-c", "core.fsync=loose-object", "-c", "core.fsyncMethod=batch")


# How long the next command waits for an apply still holding the lock (a live kiln ending
# its apply, or the `git apply` a killed kiln left running) before it goes on without it.
WAIT_S = 60.0
KEEP_FAILED = (
    "kiln could not keep the files it is about to change ({reason}); nothing was written: "
    "check that the repository's .git folder is writable and apply again."
)
READ_FAILED = (
    "kiln could not read back the files an interrupted apply changed ({reason}); the "
    "journal is kept in .git/kiln/apply-journal: check the repository with `git fsck`."
)


def folder(repo: Path) -> Path:
    return git_dir(repo) / "kiln" / "apply-journal"


@frozen
class Recovered:
    """What the next command did with an interrupted apply."""

    finished: bool  # False: rolled back
    session: str
    paths: list[str]
    kept: str = ""  # where a rollback moved what the touched paths held when kiln stopped

    def sentence(self, repo: Path) -> str:
        whose = f"session {self.session}'s changes" if self.session else "changes"
        if self.finished:
            return (
                f"kiln was stopped after writing {whose} to {repo}; it has finished that "
                "apply and recorded it (`kiln undo` takes it back)."
            )
        again = f", and `kiln apply {self.session}` writes them again" if self.session else ""
        kept = (
            f" What those files held when kiln stopped (yours too, had you edited one since) "
            f"is kept in {self.kept}."
            if self.kept
            else ""
        )
        return (
            f"kiln was stopped while writing {whose} to {repo}; it has rolled the apply back, "
            f"so the working tree is as it was before{again}.{kept}"
        )


class Journal:
    """One apply in progress: begun before the first write, closed after the ledger."""

    def __init__(self, where: Path, lock: int, entry_time: float) -> None:
        self.where, self.lock, self.time = where, lock, entry_time

    @classmethod
    def begin(cls, repo: Path, session: str, diff: str, touched: list[str]) -> Journal:
        where = folder(repo)
        where.parent.mkdir(parents=True, exist_ok=True)
        lock = _locked(where)
        if lock is None:
            raise KilnError(
                f"Another kiln is applying changes to {repo} right now; wait for it to end, "
                "then apply again."
            )
        try:
            if (where / "journal.json").exists():  # its process died: settle it first
                done = "finished" if recover_locked(repo, where).finished else "rolled back"
                raise KilnError(
                    f"An earlier apply to {repo} was cut short and kiln has {done} it; "
                    "nothing of this one was written yet: apply again."
                )
            shutil.rmtree(where, ignore_errors=True)  # what a crash while beginning left
            where.mkdir()
            entry_time = time.time()
            meta = {"session": session, "time": entry_time, "paths": touched}
            meta |= _pre_images(repo, touched)
            _durable_write(where / "diff", diff_bytes(diff))
            _durable_write(where / "journal.tmp", json.dumps(meta).encode())
            os.replace(where / "journal.tmp", where / "journal.json")
            _fsync_dir(where)
        except BaseException:
            os.close(lock)
            raise
        return cls(where, lock, entry_time)

    def written(self) -> None:
        """Every file is written: from here on the apply is finished, not rolled back."""
        (self.where / "written").touch()
        _fsync_dir(self.where)

    def close(self) -> None:
        """The apply is over (done and recorded, or refused with nothing written)."""
        _remove(self.where)
        self.release()

    def release(self) -> None:
        """Leave the journal for the next kiln command (the write stopped half way)."""
        os.close(self.lock)


def recover(repo: Path) -> Recovered | None:
    """Finish or roll back the apply whose process died in `repo`; None when there is no
    journal, or its apply is still under way."""
    where = folder(repo)
    if not (where / "journal.json").exists():
        return None
    lock = _locked(where, wait_s=WAIT_S)
    if lock is None:
        return None
    try:
        if not (where / "journal.json").exists():
            return None
        return recover_locked(repo, where)
    finally:
        os.close(lock)


def recover_locked(repo: Path, where: Path) -> Recovered:
    meta = json.loads((where / "journal.json").read_text(encoding="utf-8"))
    session, paths = meta["session"], meta["paths"]
    finished = (where / "written").exists()
    if finished:
        recorded = any(
            e.session == session and e.time == meta["time"] for e in ledger.entries(repo)
        )
        if session and not recorded:
            diff = diff_from_bytes((where / "diff").read_bytes())
            ledger.record(repo, ledger.Entry(session, diff, paths, time=meta["time"]))
        kept = ""
    else:
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(meta["time"]))
        keep = where.parent / "rolled-back" / f"{stamp}-{session or 'apply'}"
        kept = str(keep) if _roll_back(repo, meta, keep) else ""
    _remove(where)
    return Recovered(finished, session, paths, kept)


def _locked(where: Path, wait_s: float = 0.0) -> int | None:
    """The apply lock, held until closed; None while another live process holds it after
    `wait_s` (an apply under way, or the `git apply` of a kiln that was killed)."""
    fd = os.open(where.parent / "apply.lock", os.O_RDWR | os.O_CREAT, 0o644)
    deadline = time.monotonic() + wait_s
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if time.monotonic() < deadline:
                time.sleep(0.05)
                continue
            os.close(fd)
            return None
        return fd


def _pre_images(repo: Path, touched: list[str]) -> dict[str, Any]:
    """Each touched path as it is now: a file's blob and mode, a link's target, or absent
    (with the folders the apply will have to make for it)."""
    files: list[tuple[str, str, int]] = []
    links: list[tuple[str, str]] = []
    absent: list[str] = []
    new_dirs: set[str] = set()
    known_dirs: set[str] = set()
    for path in touched:
        full = repo / path
        try:
            info = os.lstat(full)
        except FileNotFoundError:
            absent.append(path)
            new_dirs.update(_missing_parents(repo, path, known_dirs))
            continue
        if stat.S_ISLNK(info.st_mode):
            links.append((path, os.readlink(full)))
        elif stat.S_ISREG(info.st_mode):
            files.append((path, _blob_id(full.read_bytes()), stat.S_IMODE(info.st_mode)))
    _store_blobs(repo, [(p, b) for p, b, _ in files])
    return {"files": files, "links": links, "absent": absent, "new_dirs": sorted(new_dirs)}


def _missing_parents(repo: Path, path: str, known: set[str]) -> list[str]:
    missing = []
    parent = os.path.dirname(path)
    while parent and parent not in known:
        if os.path.isdir(repo / parent):
            known.add(parent)
            break
        missing.append(parent)
        known.add(parent)  # seen: its own parents are walked once
        parent = os.path.dirname(parent)
    return missing


def _blob_id(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _store_blobs(repo: Path, files: list[tuple[str, str]]) -> None:
    """Write into the object store the pre-images it lacks (a person's uncommitted edit);
    a clean file's blob is there already and is not written again."""
    if not files:
        return
    asked = "".join(f"{blob}\n" for _, blob in files).encode()
    listed = _git(repo, ["cat-file", "--batch-check"], asked, KEEP_FAILED).splitlines()
    missing = [
        path for (path, _), line in zip(files, listed, strict=True) if line.endswith(b" missing")
    ]
    plain = [p for p in missing if "\n" not in p]
    write = [*_DURABLE, "hash-object", "-w", "--no-filters"]
    if plain:
        _git(
            repo, [*write, "--stdin-paths"], "".join(f"{p}\n" for p in plain).encode(), KEEP_FAILED
        )
    for path in (p for p in missing if "\n" in p):  # a name --stdin-paths cannot carry
        _git(repo, [*write, "--stdin"], (repo / path).read_bytes(), KEEP_FAILED)


def _roll_back(repo: Path, meta: dict[str, Any], keep: Path) -> bool:
    """Every touched path back to its pre-image; what the apply made removed. What stood
    at those paths is moved under `keep`, never deleted: the person may have edited a
    half-written file before this command ran. Whether anything was kept."""
    files = [(str(p), str(b), int(m)) for p, b, m in meta["files"]]
    links = [(str(p), str(t)) for p, t in meta["links"]]
    files = [f for f in files if not _as_it_was(repo, *f)]  # never reached by the apply
    kept = False
    for path in [*meta["absent"], *(p for p, _ in links), *(p for p, _, _ in files)]:
        kept = _clear(repo, path, keep) or kept
    for made in sorted(meta["new_dirs"], key=len, reverse=True):
        with contextlib.suppress(OSError):  # not empty: something of the person's is in it
            os.rmdir(repo / made)
    for path, target in links:
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, repo / path)
    asked = "".join(f"{blob}\n" for _, blob, _ in files).encode()
    out = _git(repo, ["cat-file", "--batch"], asked, READ_FAILED) if files else b""
    at = 0
    for path, blob, mode in files:
        header_end = out.index(b"\n", at)
        size = int(out[at:header_end].split()[2])
        data = out[header_end + 1 : header_end + 1 + size]
        at = header_end + 2 + size  # the content, then a newline
        if _blob_id(data) != blob:
            raise KilnError(READ_FAILED.format(reason=f"{path} read back wrong"))
        full = repo / path
        full.parent.mkdir(parents=True, exist_ok=True)
        full.write_bytes(data)
        os.chmod(full, mode)
    return kept


def _as_it_was(repo: Path, path: str, blob: str, mode: int) -> bool:
    full = repo / path
    try:
        info = os.lstat(full)
    except FileNotFoundError:
        return False
    return (
        stat.S_ISREG(info.st_mode)
        and stat.S_IMODE(info.st_mode) == mode
        and _blob_id(full.read_bytes()) == blob
    )


def _clear(repo: Path, path: str, keep: Path) -> bool:
    """Whatever the apply left at `path` (a file, a link, a half-written file) moved out of
    the tree to the same path under `keep`; a folder there is one the apply made, left for
    the folders' pass. A path reached through a link is left alone: the rollback never
    follows one out of the tree. Whether something was moved."""
    full = repo / path
    top = os.path.realpath(repo)
    parent = os.path.realpath(full.parent)
    if parent != top and not parent.startswith(top + os.sep):
        return False
    if not full.is_symlink() and (full.is_dir() or not full.exists()):
        return False
    (keep / path).parent.mkdir(parents=True, exist_ok=True)
    shutil.move(full, keep / path)  # a rename, unless .git is on another file system
    return True


def _git(repo: Path, args: list[str], stdin: bytes, failed: str) -> bytes:
    done = subprocess.run(["git", *args], cwd=repo, input=stdin, capture_output=True)
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise KilnError(failed.format(reason=lines[-1] if lines else "git failed"))
    return done.stdout


def _durable_write(path: Path, data: bytes) -> None:
    with open(path, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove(where: Path) -> None:
    """The journal gone, `journal.json` first: what is left after a crash here is ignored."""
    with contextlib.suppress(FileNotFoundError):
        (where / "journal.json").unlink()
    shutil.rmtree(where, ignore_errors=True)
