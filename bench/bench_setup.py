"""Setup phase and disk limit, measured the way the README states them.

Run: .venv/bin/python bench/bench_setup.py
- start times of one repository (a package whose tests import a wheel shipped inside it):
  without setup, with setup run now, and from the cached setup image; target: the cached
  start under 2 s, and within 1.5x of a start with no setup at all;
- `yes > /workspace/big`, then forty 20 MB files, under disk_limit = "200m": how long until
  each was stopped, how much was written, and how much free space the host lost (< 1 GB).
"""

from __future__ import annotations

import asyncio
import dataclasses
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import docker

from sandbox.base import SandboxConfig
from sandbox.factory import create_sandbox
from tests.wheels import write_wheel

PYPROJECT = (
    '# {marker}\n[project]\nname = "app"\nversion = "0.1"\ndependencies = ["tinydep"]\n'
    '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n'
)


def wheel_repo(root: Path) -> Path:
    (root / "src/app").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "pyproject.toml").write_text(PYPROJECT.format(marker=uuid.uuid4().hex))
    (root / "src/app/__init__.py").write_text("from tinydep import double\n")
    (root / "tests/test_app.py").write_text(
        "from app import double\n\n\ndef test():\n    assert double(2) == 4\n"
    )
    write_wheel(root / "wheels", "tinydep", "1.0", "def double(x):\n    return 2 * x\n")
    env = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@e", "GIT_COMMITTER_NAME": "b",
           "GIT_COMMITTER_EMAIL": "b@e", "PATH": "/usr/bin:/bin"}  # fmt: skip
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(["git", "commit", "-qm", "bench"], cwd=root, check=True, env=env)
    return root


async def timed_start(repo: Path, config: SandboxConfig) -> tuple[float, str]:
    box = create_sandbox(repo, config)
    began = time.monotonic()
    await box.start()
    took = time.monotonic() - began
    tests = await box.exec("python3 -m pytest -q 2>&1 | tail -1")
    await box.close()
    return took, tests.output.strip()


async def starts(repo: Path) -> None:
    plain = SandboxConfig(setup_auto=False)
    auto = SandboxConfig()
    await timed_start(repo, plain)  # warm the engine and the page cache
    none_s = min([(await timed_start(repo, plain))[0] for _ in range(3)])
    first_s, first_tests = await timed_start(repo, auto)
    cached = [await timed_start(repo, auto) for _ in range(3)]
    cached_s = min(took for took, _ in cached)
    print(f"start without setup    {none_s:6.2f} s")
    print(f"start running setup    {first_s:6.2f} s   tests: {first_tests}")
    print(f"start from the cache   {cached_s:6.2f} s   tests: {cached[-1][1]}")
    print(
        f"cached / no setup      {cached_s / none_s:6.2f}x (target 1.5x; under 2 s: {cached_s < 2})"
    )


async def disk_limit(repo: Path) -> None:
    box = create_sandbox(
        repo, dataclasses.replace(SandboxConfig(setup_auto=False), disk_limit="200m")
    )
    await box.start()
    free = shutil.disk_usage(repo).free
    for command in ("yes > /workspace/big",
                    "for i in $(seq 40); do head -c 20000000 /dev/zero > f$i; done"):  # fmt: skip
        result = await box.exec(command, timeout=120)
        lost = (free - shutil.disk_usage(repo).free) / 2**20
        print(
            f"{command[:40]:<40} stopped after {result.duration_s:5.2f} s; host lost {lost:6.0f} MB so far"
        )
    files = await box.exec("ls f* | wc -l; stat -c %s big")
    count, size = files.output.split()
    print(f"big is {int(size) / 2**20:.0f} MB; {count} of the 40 files were written")
    await box.close()


def main() -> None:
    client = docker.from_env()
    with tempfile.TemporaryDirectory() as tmp:
        repo = wheel_repo(Path(tmp) / "repo")
        try:
            asyncio.run(starts(repo))
            asyncio.run(disk_limit(repo))
        finally:
            for image in client.images.list("kiln-setup"):
                if any("kiln-setup" in t for t in image.tags) and image.labels.get(
                    "kiln.repo"
                ) == str(repo):
                    time.sleep(2)  # the last sandbox's container is removed in the background
                    client.images.remove(image.id, force=True)


if __name__ == "__main__":
    main()
