"""The code of dataclass methods, kept between runs as Python keeps a module's bytecode.

CPython writes each dataclass's `__init__`, `__repr__`, `__eq__`, `__hash__` (and, for a
frozen one, `__setattr__` and `__delattr__`) as source text and compiles it when the
class is defined, every time the process starts: for the hundred-odd classes a `kiln run`
defines that is some 470 compilations, about 45 ms of a start that is CPU-bound (measured
with bench/bench_overhead.py's run). The text depends only on the class's fields and
options, so the same text always compiles to the same code: `install()` has the
dataclasses module compile each text once per Python version and reuse the code object
from a file in kiln's cache afterwards. Only the compile step is skipped; the methods are
still built by the dataclasses module itself, from its own text, in its own namespaces.

The dataclasses module runs that text with the built-in `exec` (its only use of it, in
3.11 to 3.13); `install()` shadows that one name in the module. A cache that cannot be read
is ignored, one that cannot be written is not kept: it is a cache.
"""

from __future__ import annotations

import builtins
import contextlib
import marshal
import os
import sys
from types import CodeType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

# More than any one version of kiln defines (with Textual's): past it, a save keeps only
# what the saving process used, so texts of old versions do not pile up.
MAX_ENTRIES = 4000

# Text -> its code, marshalled: a file's entries are unmarshalled only when used.
_stored: dict[str, bytes] = {}  # as read from the file
_used: dict[str, bytes] = {}  # what this process's classes used, compiled or read
_compiled_here = False


def cache_file() -> Path:
    """In kiln's cache folder, per Python version (code objects are not portable between
    versions)."""
    from agent.settings import paths  # here, like dataclasses in install()

    return paths.cache_dir() / f"dataclass-code.{sys.implementation.cache_tag}.marshal"


def install() -> None:
    """Read the kept code and have dataclasses defined from now on use it."""
    import dataclasses  # here: `kiln --help` imports this module, and needs none of it

    with contextlib.suppress(OSError, EOFError, ValueError, TypeError):
        with open(cache_file(), "rb") as kept:
            stored = marshal.loads(kept.read())
        if isinstance(stored, dict):
            _stored.update(
                (text, blob)
                for text, blob in stored.items()
                if isinstance(text, str) and isinstance(blob, bytes)
            )
    dataclasses.exec = _exec  # type: ignore[attr-defined]


def save() -> None:
    """Keep what this process compiled (nothing is written when it compiled nothing)."""
    if not _compiled_here:
        return
    import tempfile

    kept = {**_stored, **_used}
    if len(kept) > MAX_ENTRIES:
        kept = dict(_used)
    with contextlib.suppress(OSError):
        path = cache_file()
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".dataclass-code-")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(marshal.dumps(kept))
            os.replace(temporary, path)  # readers see the old file or the new, whole
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise


def _exec(source: Any, global_names: Any = None, local_names: Any = None) -> None:
    """`exec` as the dataclasses module calls it (positionally), the compile cached."""
    if isinstance(source, str):
        source = _code_for(source)
    builtins.exec(source, global_names, local_names)


def _code_for(text: str) -> CodeType:
    global _compiled_here
    blob = _stored.get(text)
    if blob is not None:
        with contextlib.suppress(EOFError, ValueError, TypeError):
            code = marshal.loads(blob)
            if isinstance(code, CodeType):
                _used[text] = blob
                return code
    code = compile(text, "<string>", "exec")
    _used[text] = marshal.dumps(code)
    _compiled_here = True
    return code
