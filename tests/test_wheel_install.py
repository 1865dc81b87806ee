"""The package as a person installs it: the wheel built from these sources goes into a
fresh venv with its dependencies from the package index (what `pipx install kiln-code`
does), and the `kiln` it installs runs from there, not from this checkout. The README's
install line names the same distribution pyproject.toml builds."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import agent

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
NAME = PYPROJECT["project"]["name"]
# What a missing index looks like; anything else is a broken package and fails.
OFFLINE = re.compile(
    r"No matching distribution|Could not find a version|NewConnectionError|"
    r"Temporary failure in name resolution|Network is unreachable|ReadTimeoutError"
)


def test_the_readme_installs_the_distribution_pyproject_builds() -> None:
    readme = (ROOT / "README.md").read_text()
    assert NAME == "kiln-code" and PYPROJECT["project"]["scripts"] == {"kiln": "agent.cli:main"}
    assert f"pipx install {NAME}" in readme and f"uv tool install {NAME}" in readme
    # Every pip install of kiln names the distribution, never `kiln` (another project).
    assert not re.search(r"install '?\"?kiln(\[|'|\"|\s|$)", readme, re.M)
    assert "OWNER/" not in readme
    assert PYPROJECT["project"]["version"] == agent.__version__


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=240)


def test_the_built_wheel_installs_into_a_fresh_venv_and_runs(tmp_path: Path) -> None:
    # Only what the wheel is built from: no build/ or egg-info is left in the checkout.
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in ("agent", "sandbox", "tui", "themes"):
        shutil.copytree(ROOT / package, source / package, ignore=skip)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    pip = ["-m", "pip", "--disable-pip-version-check", "--timeout", "30", "--retries", "1"]
    built = _run(
        [
            sys.executable,
            *pip,
            "wheel",
            "--no-deps",
            "-q",
            "-w",
            str(tmp_path / "dist"),
            str(source),
        ],
        tmp_path,
        env,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    [wheel] = (tmp_path / "dist").glob("*.whl")
    assert wheel.name == f"{NAME.replace('-', '_')}-{agent.__version__}-py3-none-any.whl"

    venv = tmp_path / "fresh"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    installed = _run(
        [str(venv / "bin" / "python"), *pip, "install", "-q", str(wheel)], tmp_path, env
    )
    if installed.returncode != 0 and OFFLINE.search(installed.stderr):
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true and the package index is needed: {installed.stderr[-800:]}")
        pytest.skip(f"the package index is not reachable: {installed.stderr[-300:]}")
    assert installed.returncode == 0, installed.stderr[-2000:]

    version = _run([str(venv / "bin" / "kiln"), "--version"], tmp_path, env)
    assert version.returncode == 0, version.stderr
    assert version.stdout.strip() == f"kiln {agent.__version__}"
    where = _run(
        [str(venv / "bin" / "python"), "-c",
         "import agent, importlib.metadata as m; print(agent.__file__, m.version('kiln-code'))"],
        tmp_path,
        env,
    )  # fmt: skip
    path, dist_version = where.stdout.split()
    assert Path(path).is_relative_to(venv) and dist_version == agent.__version__
