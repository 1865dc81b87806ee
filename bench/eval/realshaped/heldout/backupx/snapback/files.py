"""Which files a backup looks at."""

from __future__ import annotations

import os
from pathlib import Path


def iter_files(root: Path) -> list[str]:
    """Relative POSIX paths of the regular files under `root`, sorted. Symlinks are skipped."""
    found = []
    for folder, _dirs, names in os.walk(root):
        for name in names:
            path = Path(folder, name)
            if path.is_symlink() or not path.is_file():
                continue
            found.append(path.relative_to(root).as_posix())
    return sorted(found)
