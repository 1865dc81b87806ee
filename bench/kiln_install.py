"""kiln installed as a person installs it, for the benchmarks that set it beside its peers.

The peers run from a venv holding only what they install (bench/overhead_others.py), so
kiln does too: a venv with kiln's own dependencies and none of its extras or development
tools, kiln itself installed editable from this checkout (so it always runs this source,
compiled to bytecode by bench/bytecode.py as an installed kiln's is). The development
venv is not that: its extras bring packages kiln's install does not, and some libraries
import more when those are there (httpx loads its command-line client, with rich, pygments
and click, whenever click is installed: about 30 ms on every start).

Made on first use and again whenever pyproject.toml changes; needs the package registry.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KILN_VENV = Path(tempfile.gettempdir()) / "kiln-bench-kiln-venv"
_STAMP = KILN_VENV / "kiln-pyproject.sha256"
# The checkout on sys.path, as an installed kiln's site-packages is: setuptools' default
# editable install instead adds an import hook, which loads pathlib, dataclasses and
# inspect at every interpreter start, before kiln's first line.
_AS_A_PATH = ("--config-settings", "editable_mode=compat")


def installed_kiln() -> Path:
    """The bench venv's python, with this checkout's kiln and its dependencies installed."""
    python = KILN_VENV / "bin" / "python"
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if python.exists() and _STAMP.exists() and _STAMP.read_text() == wanted:
        return python
    print(f"installing kiln into {KILN_VENV} (its dependencies only) ...", file=sys.stderr)
    steps = (
        [sys.executable, "-m", "venv", "--clear", str(KILN_VENV)],
        [str(python), "-m", "pip", "install", "--quiet", "--editable", str(ROOT), *_AS_A_PATH],
    )
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(
                f"could not install kiln into {KILN_VENV}: {done.stderr.strip()[-500:]} "
                "(the benchmark needs the package registry once to install kiln's dependencies)"
            )
    _STAMP.write_text(wanted)
    return python
