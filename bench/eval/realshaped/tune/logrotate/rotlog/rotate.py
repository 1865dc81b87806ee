"""Rotating the service log: app.log is moved aside as app-YYYYMMDD-HHMMSS.log and a
fresh app.log is started; only the last `keep` archives are kept."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

STAMP = "%Y%m%d-%H%M%S"


def archive_name(stem: str, when: datetime) -> str:
    return f"{stem}-{when.strftime(STAMP)}.log"


def archives(directory: Path, stem: str) -> list[Path]:
    """The archives of `stem` in `directory`; the live log and other files are ignored."""
    pattern = re.compile(rf"^{re.escape(stem)}-(\d{{8}}-\d{{6}})\.log$")
    return [p for p in directory.iterdir() if p.is_file() and pattern.match(p.name)]


def prune(directory: Path, stem: str, keep: int) -> list[Path]:
    """Delete all but the `keep` most recent archives; return what was deleted."""
    if keep < 0:
        raise ValueError("keep cannot be negative")
    found = sorted(archives(directory, stem), key=lambda p: p.name)
    doomed = found[keep:]
    for path in doomed:
        path.unlink()
    return doomed


def rotate(log: Path, keep: int, now: datetime | None = None) -> Path | None:
    """Archive `log` (if it has anything in it), start an empty one, prune old archives.

    Returns the archive written, or None when the log was empty."""
    now = now or datetime.now()
    stem = log.name.removesuffix(".log")
    if not log.exists() or log.stat().st_size == 0:
        log.touch()
        return None
    target = log.with_name(archive_name(stem, now))
    if target.exists():
        raise FileExistsError(target)
    log.rename(target)
    log.touch()
    prune(log.parent, stem, keep)
    return target
