"""The command server as a module the container imports, not a source it compiles.

Handed over as `python3 -c SOURCE`, the server's source (some 30 KB) went through the
engine with every container's create request, and the container's Python compiled it at
every start, on the way to the sandbox's first command. Instead, the source and its
bytecode sit in a folder of their own in kiln's cache, mounted read-only into every
container (`MOUNTED_AT`), whose Python imports the server from there: the
bytecode when it is this Python's version (the magic number matches), else the source,
compiled as before.

The folder is named by the source's digest and this Python's cache tag and never changes
once made (it is written elsewhere, then renamed into place), so a kiln of another
version makes its own, and no command can change what the next container runs: the mount
is read-only.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

MOUNTED_AT = "/kiln/server"
# The server's `python3 -I -S -c` argument when its folder is mounted.
BOOT = f"import sys; sys.path.insert(0, {MOUNTED_AT!r}); import exec_server; exec_server.main()"
SOURCE = Path(__file__).with_name("exec_server.py")


def cache_root() -> Path:
    """kiln's cache folder (as agent/settings/paths.py finds it)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kiln"


def server_folder(root: Path | None = None) -> Path | None:
    """The folder holding the server's source and bytecode under `root` (kiln's cache),
    made if missing; None when it cannot be (the container then gets the source itself)."""
    root = root or cache_root()
    try:
        source = SOURCE.read_bytes()
        tag = sys.implementation.cache_tag or "source"
        folder = root / f"exec-server-{hashlib.sha256(source).hexdigest()[:16]}-{tag}"
        if not folder.is_dir():
            _make(folder, source)
        return folder
    except OSError:
        return None


def _make(folder: Path, source: bytes) -> None:
    folder.parent.mkdir(parents=True, exist_ok=True)
    made = Path(tempfile.mkdtemp(prefix=".exec-server-", dir=folder.parent))
    try:
        (made / SOURCE.name).write_bytes(source)
        if sys.implementation.cache_tag is not None:
            import py_compile

            # Unchecked: the folder never changes, so the source need not be read to
            # trust the bytecode; the container's Python still checks its magic number.
            py_compile.compile(
                str(made / SOURCE.name),
                dfile=f"{MOUNTED_AT}/{SOURCE.name}",
                doraise=True,
                invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
            )
        # Readable by the sandbox's user, whoever runs kiln; written by no one.
        for path in (made, *made.rglob("*")):
            path.chmod(0o755 if path.is_dir() else 0o644)
        os.rename(made, folder)
    except OSError:
        shutil.rmtree(made, ignore_errors=True)
        if not folder.is_dir():  # another kiln made it meanwhile: that one is as good
            raise
