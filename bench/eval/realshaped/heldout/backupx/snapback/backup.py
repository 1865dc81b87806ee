"""Comparing the source with the manifest of the last backup, and copying what changed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from snapback.files import iter_files

MANIFEST = ".snapback.json"


def load_manifest(dest: Path) -> dict[str, list[int]]:
    path = dest / MANIFEST
    return json.loads(path.read_text()) if path.exists() else {}


def fingerprint(path: Path) -> list[int]:
    stat = path.stat()
    return [stat.st_size, stat.st_mtime_ns]


def plan(root: Path, dest: Path, files: list[str]) -> list[str]:
    """The files that are new or changed since the last backup into `dest`."""
    manifest = load_manifest(dest)
    return [rel for rel in files if manifest.get(rel) != fingerprint(root / rel)]


def copy(root: Path, dest: Path, files: list[str]) -> None:
    manifest = load_manifest(dest)
    for rel in files:
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / rel, target)
        manifest[rel] = fingerprint(root / rel)
    dest.mkdir(parents=True, exist_ok=True)
    (dest / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True))


def backup(root: Path, dest: Path, dry_run: bool = False) -> list[str]:
    changed = plan(root, dest, iter_files(root))
    if not dry_run:
        copy(root, dest, changed)
    return changed
