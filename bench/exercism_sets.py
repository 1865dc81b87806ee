"""Extract the Exercism sets `kiln eval` measures on, outside kiln's repository.

    .venv/bin/python bench/exercism_sets.py [--dest /tmp/kiln-exercism]
        [--exercism GIT_DIR] [--polyglot GIT_DIR] [--keep-deprecated]

DEST/heldout/ is the Python part of Aider's polyglot benchmark (its 34 exercises, as that
repository has them); DEST/tune/ is Exercism's Python practice exercises that are not in
it, less those Exercism has deprecated (unless --keep-deprecated). Neither is ever
committed here: they are other people's work, under their own licence. The sources are
git directories without a work tree (as `fetch` leaves them), read with `git archive`.
Each exercise is checked to parse as one (`agent.local.exercism`); nothing else in the
held-out set is read.
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from agent.local.exercism import exercises_in

MIRROR = Path("/work/.mirror")
KILN_REPO = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dest", default="/tmp/kiln-exercism")
    parser.add_argument("--exercism", default=str(MIRROR / "exercism+python" / "repo"))
    parser.add_argument("--polyglot", default=str(MIRROR / "Aider-AI+polyglot-benchmark" / "repo"))
    parser.add_argument("--keep-deprecated", action="store_true")
    args = parser.parse_args()
    dest = Path(args.dest).resolve()
    if dest.is_relative_to(KILN_REPO):
        sys.exit(f"{dest} is inside kiln's repository; give a folder outside it.")
    with tempfile.TemporaryDirectory(prefix="kiln-exercism-") as tmp:
        polyglot = _extract(Path(args.polyglot), "python/exercises/practice", Path(tmp) / "p")
        exercism = _extract(Path(args.exercism), "exercises/practice", Path(tmp) / "e")
        deprecated = set() if args.keep_deprecated else _deprecated(Path(args.exercism))
        held_out = {d.name for d in polyglot.iterdir() if d.is_dir()}
        _replace(dest / "heldout", [d for d in polyglot.iterdir() if d.is_dir()])
        tune = [
            d
            for d in exercism.iterdir()
            if d.is_dir() and d.name not in held_out and d.name not in deprecated
        ]
        _replace(dest / "tune", tune)
    for split in ("heldout", "tune"):
        folders = [d for d in (dest / split).iterdir() if d.is_dir()]
        parsed = exercises_in(dest / split)
        print(f"{dest / split}: {len(parsed)} exercises ({len(folders) - len(parsed)} not parsed)")
    print(f"left out of tune as deprecated: {sorted(deprecated - held_out)}")
    return 0


def _extract(git_dir: Path, subdir: str, into: Path) -> Path:
    if not git_dir.exists():
        sys.exit(f"{git_dir} does not exist; fetch the repository first.")
    archive = subprocess.run(
        ["git", "--git-dir", str(git_dir), "archive", "--format=tar", "HEAD", subdir],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / subdir


def _deprecated(git_dir: Path) -> set[str]:
    """The practice exercises Exercism's track config marks deprecated."""
    config = subprocess.run(
        ["git", "--git-dir", str(git_dir), "show", "HEAD:config.json"],
        capture_output=True,
        check=True,
    ).stdout
    practice = json.loads(config)["exercises"]["practice"]
    return {str(e["slug"]) for e in practice if e.get("status") == "deprecated"}


def _replace(split: Path, exercises: list[Path]) -> None:
    if split.exists():
        shutil.rmtree(split)
    split.mkdir(parents=True)
    for exercise in sorted(exercises):
        shutil.move(str(exercise), split / exercise.name)


if __name__ == "__main__":
    sys.exit(main())
