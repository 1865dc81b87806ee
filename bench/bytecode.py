"""kiln's modules compiled to bytecode before a benchmark runs kiln, as an installed kiln's are.

pip compiles a package's modules when it installs it (the peers' venvs and Textual have
theirs). The benchmarks run kiln from its source tree, and where PYTHONDONTWRITEBYTECODE is
set (CI, dev containers) Python never writes what it compiles: every `kiln` would compile
each of its modules again (measured: a third of `kiln run`'s CPU time), which no installed
kiln does. The bytecode goes where Python looks for it (`__pycache__/`, ignored by git).
"""

from __future__ import annotations

import compileall
from pathlib import Path

PACKAGES = ("agent", "sandbox", "tui", "themes")


def compile_kiln(root: Path) -> None:
    for package in PACKAGES:
        compileall.compile_dir(root / package, quiet=1)
