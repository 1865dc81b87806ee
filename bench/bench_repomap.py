"""The repo map on a large real code base, against Aider's on the same files, same run.

Run: .venv/bin/python bench/bench_repomap.py [TREE]
- TREE defaults to Django 5.1's sdist (~2,900 source files), fetched with pip into /tmp
  and made a git repository;
- kiln cold (an empty cache dir), kiln warm (cache present, nothing changed), kiln after
  one file changed, each as a fresh `kiln map` process: wall time and peak RSS (the main
  process and its largest child: a parsing worker or git);
- Aider's RepoMap cold and warm (its own tags cache), run by a bench-only venv at
  /tmp/aider-venv (`python3.11 -m venv /tmp/aider-venv && /tmp/aider-venv/bin/pip install
  aider-chat`; never kiln's .venv) through bench/aider_repomap_driver.py.
Targets: kiln cold at most half of Aider's cold time; kiln warm under 0.3 s; `kiln map`
well inside 60 s.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
AIDER_PYTHON = Path("/tmp/aider-venv/bin/python")
WORK = Path("/tmp/bench-repomap")
TOKENS = 1500
# Runs `kiln map` in-process, so peak memory is the process's own and its workers'.
KILN_DRIVER = """
import json, resource, sys, time
started = time.perf_counter()
from agent.context.index import RepoIndex
from agent.context.repomap import map_of_index
index = RepoIndex.for_repository(__import__("pathlib").Path(sys.argv[1]))
index.refresh()
text = map_of_index(index, [], int(sys.argv[2]))
print(json.dumps({"seconds": time.perf_counter() - started, "chars": len(text),
    "parsed": len(index.last_parsed),
    "peak_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    "worker_peak_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""


def django_tree() -> Path:
    tree = WORK / "Django-5.1"
    if (tree / ".git").exists():
        return tree
    WORK.mkdir(exist_ok=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "-q",
            "--no-deps",
            "--no-binary",
            ":all:",
            "django==5.1",
            "-d",
            str(WORK),
        ],
        check=True,
    )
    with tarfile.open(WORK / "Django-5.1.tar.gz") as archive:
        archive.extractall(WORK, filter="data")
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost"]
    subprocess.run([*git, "init", "-q"], cwd=tree, check=True)
    subprocess.run([*git, "add", "-A"], cwd=tree, check=True)
    subprocess.run([*git, "commit", "-qm", "django 5.1"], cwd=tree, check=True)
    return tree


def run_json(command: list[str], env: dict[str, str] | None = None) -> dict[str, float]:
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{command[0]} failed: {done.stderr.strip()[-800:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["wall"] = wall
    return result


def kiln(tree: Path, cache: Path) -> dict[str, float]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "PYTHONPATH": str(ROOT)}
    return run_json([sys.executable, "-c", KILN_DRIVER, str(tree), str(TOKENS)], env)


def aider(tree: Path, files: Path) -> dict[str, float]:
    driver = ROOT / "bench" / "aider_repomap_driver.py"
    return run_json([str(AIDER_PYTHON), str(driver), str(tree), str(files), str(TOKENS)])


def line(label: str, result: dict[str, float]) -> str:
    memory = f"peak {result['peak_kb'] / 1024:.0f} MB"
    if result.get("worker_peak_kb"):
        memory += f" (largest child, a worker or git: {result['worker_peak_kb'] / 1024:.0f} MB)"
    return (
        f"{label:<28} {result['seconds']:7.2f} s in-process  {result['wall']:7.2f} s wall  "
        f"{memory}  map {result['chars']:.0f} chars"
    )


def main() -> int:
    tree = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else django_tree()
    sys.path.insert(0, str(ROOT))
    from agent.context.index import list_repository_files
    from agent.context.tags import is_taggable

    source = sorted(p for p in list_repository_files(tree) if is_taggable(p))
    files = WORK / "files.txt"
    files.write_text("\n".join(source) + "\n")
    print(f"tree: {tree} ({len(source)} source files)")
    cache = Path(tempfile.mkdtemp(prefix="kiln-bench-cache-"))
    try:
        cold = kiln(tree, cache)
        warm = kiln(tree, cache)
        touched = tree / source[len(source) // 2]
        os.utime(touched)
        one = kiln(tree, cache)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    print(line("kiln cold", cold))
    print(line("kiln warm", warm))
    print(line(f"kiln, 1 file changed ({one['parsed']:.0f})", one))
    ok = warm["wall"] < 0.3 and cold["wall"] < 60
    if not AIDER_PYTHON.exists():
        print(f"aider: not measured, {AIDER_PYTHON} is missing (see this file's docstring)")
    else:
        shutil.rmtree(tree / ".aider.tags.cache.v4", ignore_errors=True)
        aider_cold = aider(tree, files)
        aider_warm = aider(tree, files)
        print(line("aider cold", aider_cold))
        print(line("aider warm (its tag cache)", aider_warm))
        ratio = cold["wall"] / aider_cold["wall"]
        print(f"kiln cold / aider cold: {ratio:.2f} (target <= 0.50)")
        print(f"kiln warm / aider warm: {warm['wall'] / aider_warm['wall']:.3f}")
        ok = ok and ratio <= 0.5
    print(
        f"kiln warm {warm['wall']:.2f} s (target < 0.3 s); kiln map cold {cold['wall']:.1f} s (< 60 s)"
    )
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
