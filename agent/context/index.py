"""The tags of a whole repository, kept in one cache blob and re-parsed only where changed.

The cache is ONE marshal file under kiln's cache dir, per repository: reading one blob
and stat-ing every file costs ~0.02 s where a lookup per file (Aider's diskcache) costs
~0.12 s on 1.3k files. A file is re-parsed when its size or mtime changed, or when git's
blob id for it changed (a second check that costs nothing: `git ls-files -s` lists the
files anyway). A cold run over many files parses them in a process pool.

Files the model changed in the sandbox are not on the host's disk: `update()` lays their
new content over the host's tags, in memory only, so the cache never holds them.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from agent.context.tags import FileRecord, file_record, is_taggable
from agent.errors import UsageError
from agent.settings.paths import cache_dir

if TYPE_CHECKING:
    import multiprocessing.context

CACHE_VERSION = 1
# Below this many files to parse, starting worker processes costs more than it saves.
PARALLEL_FROM = 48
CHUNK_FILES = 64

# path -> (size, mtime_ns, git blob id or "", record)
CacheEntry = tuple[int, int, str, FileRecord]


class NotARepository(UsageError):
    """Exit 2: the person named something that is not a git repository."""


def list_repository_files(root: Path) -> dict[str, str]:
    """Tracked and untracked-but-not-ignored files -> git blob id ("" when untracked)."""
    try:
        listing = subprocess.run(
            ["git", "ls-files", "-z", "-s", "-co", "--exclude-standard"],
            cwd=root,
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        raise NotARepository(
            f"{root} is not a git repository (or git cannot read it); "
            "run kiln map inside one or give its path."
        ) from None
    files: dict[str, str] = {}
    for entry in listing.decode("utf-8", "surrogateescape").split("\0"):
        if not entry:
            continue
        meta, tab, path = entry.partition("\t")
        if tab:  # "mode blob stage<TAB>path": tracked
            files[path] = meta.split(" ")[1]
        else:
            files.setdefault(entry, "")
    return files


def _parse_chunk(root: str, paths: list[str]) -> list[tuple[str, FileRecord]]:
    """Run in a worker: read and tag each file (a file gone or unreadable gives no tags)."""
    out: list[tuple[str, FileRecord]] = []
    for path in paths:
        try:
            data = Path(root, path).read_bytes()
        except OSError:
            data = b""
        out.append((path, file_record(path, data)))
    return out


def _pool_context() -> multiprocessing.context.BaseContext:
    # fork is the cheapest start, but forking a process that runs other threads (an
    # event loop's executor, the docker SDK) can deadlock a child on a held lock.
    import multiprocessing

    single = threading.active_count() == 1
    return multiprocessing.get_context("fork" if single else "spawn")


def default_cache_file(root: Path) -> Path:
    key = hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:16]
    return cache_dir() / "repomap" / f"{key}.marshal"


@dataclass(eq=False, repr=False)  # state, compared and shown by identity
class RepoIndex:
    """All tags of one repository; `refresh()` brings them up to date with the disk."""

    root: Path
    cache_file: Path | None = None  # None: no cache on disk (tests, one-off use)
    workers: int = max(1, min(4, (os.cpu_count() or 1)))
    entries: dict[str, CacheEntry] = field(default_factory=dict)
    overlay: dict[str, FileRecord | None] = field(default_factory=dict)  # None: deleted
    last_parsed: list[str] = field(default_factory=list)  # what the last refresh parsed
    _loaded: bool = False

    @classmethod
    def for_repository(cls, root: Path) -> RepoIndex:
        root = root.resolve()
        return cls(root, default_cache_file(root))

    def records(self) -> dict[str, FileRecord]:
        """Every taggable file's record, the sandbox's changes laid over the disk's."""
        merged = {path: entry[3] for path, entry in self.entries.items()}
        for path, record in self.overlay.items():
            if record is None:
                merged.pop(path, None)
            else:
                merged[path] = record
        return merged

    def refresh(self) -> list[str]:
        """Re-read the file list; re-parse new and changed files; save the cache if needed."""
        self._load()
        listed = list_repository_files(self.root)
        fresh: dict[str, CacheEntry] = {}
        stale: dict[str, tuple[int, int, str]] = {}
        prefix = f"{self.root}/"
        for path, blob in listed.items():
            if not is_taggable(path):
                continue
            try:
                stat = os.stat(prefix + path)
            except OSError:  # deleted but still tracked, or a dangling link
                continue
            old = self.entries.get(path)
            if (
                old is not None
                and old[0] == stat.st_size
                and old[1] == stat.st_mtime_ns
                and (not blob or not old[2] or old[2] == blob)
            ):
                fresh[path] = old
            else:
                stale[path] = (stat.st_size, stat.st_mtime_ns, blob)
        for path, record in self._parse(sorted(stale)):
            size, mtime, blob = stale[path]
            fresh[path] = (size, mtime, blob, record)
        changed = bool(stale) or fresh.keys() != self.entries.keys()
        self.entries = fresh
        self.last_parsed = sorted(stale)
        if changed:
            self._save()
        return self.last_parsed

    def state_key(self) -> str:
        """Changes whenever any file's tags may have: the disk's files and the overlay."""
        digest = hashlib.sha256(str(self.root).encode())
        for path in sorted(self.entries):
            size, mtime, blob, _ = self.entries[path]
            digest.update(f"\0{path}\0{size}\0{mtime}\0{blob}".encode())
        digest.update(marshal.dumps(sorted(self.overlay.items())))
        return digest.hexdigest()

    def update(self, path: str, data: bytes | str | None) -> None:
        """Re-tag one file whose content changed in the sandbox (None: it was deleted)."""
        if data is None:
            self.overlay[path] = None
            return
        raw = data.encode("utf-8") if isinstance(data, str) else data
        self.overlay[path] = file_record(path, raw)

    def _parse(self, paths: list[str]) -> list[tuple[str, FileRecord]]:
        if len(paths) < PARALLEL_FROM or self.workers < 2:
            return _parse_chunk(str(self.root), paths)
        from concurrent.futures import ProcessPoolExecutor  # only a cold run over many files

        chunks = [paths[i : i + CHUNK_FILES] for i in range(0, len(paths), CHUNK_FILES)]
        with ProcessPoolExecutor(self.workers, mp_context=_pool_context()) as pool:
            results = pool.map(_parse_chunk, [str(self.root)] * len(chunks), chunks)
            return [item for chunk in results for item in chunk]

    def _load(self) -> None:
        if self._loaded or self.cache_file is None:
            return
        self._loaded = True
        try:
            blob = marshal.loads(self.cache_file.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            return  # no cache yet, or a damaged one: parse afresh
        if isinstance(blob, dict) and blob.get("version") == CACHE_VERSION:
            self.entries = blob["files"]

    def _save(self) -> None:
        if self.cache_file is None:
            return
        blob = marshal.dumps({"version": CACHE_VERSION, "files": self.entries})
        self.cache_file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        partial = self.cache_file.with_suffix(f".{os.getpid()}.partial")
        try:
            partial.write_bytes(blob)
            os.replace(partial, self.cache_file)
        except OSError:
            partial.unlink(missing_ok=True)  # a read-only cache dir costs speed, not tags
