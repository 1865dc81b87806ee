"""`kiln review` with the embedded model (pytest -m live): five commits that each break one
function; how often the review reports a finding on the file that broke."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import make_git_repo
from tests.vcs.conftest import GIT_ENV, commit_file

pytestmark = pytest.mark.live
KILN = str(Path(sys.executable).parent / "kiln")
HITS: list[bool] = []

# (module, the good code, the line as it is, the line as the breaking commit leaves it)
CASES = [
    ("parity.py", "def is_even(n):\n    \"\"\"True for 0, 2, 4, ...\"\"\"\n    return n % 2 == 0\n",
     "n % 2 == 0", "n % 2 == 1"),
    ("bounds.py", "def clamp(x, lo, hi):\n    \"\"\"x kept within lo..hi.\"\"\"\n    return max(lo, min(x, hi))\n",
     "max(lo, min(x, hi))", "min(lo, max(x, hi))"),
    ("stats.py", "def average(xs):\n    \"\"\"The mean of xs.\"\"\"\n    return sum(xs) / len(xs)\n",
     "sum(xs) / len(xs)", "sum(xs) / (len(xs) + 1)"),
    ("lists.py", "def last(items):\n    \"\"\"The last item of a list.\"\"\"\n    return items[-1]\n",
     "items[-1]", "items[0]"),
    ("words.py", "def greet(name):\n    \"\"\"A greeting for name.\"\"\"\n    return f\"Hello, {name}!\"\n",
     'f"Hello, {name}!"', '"Hello, name!"'),
]  # fmt: skip
HELPERS = "def double(x):\n    return 2 * x\n"


@pytest.mark.parametrize(("module", "good", "before", "after"), CASES, ids=[c[0] for c in CASES])
def test_review_of_a_breaking_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: str, good: str, before: str, after: str
) -> None:
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    repo = make_git_repo(tmp_path / "repo", {module: good, "helpers.py": HELPERS})
    commit_file(repo, module, good.replace(before, after), f"{module}: tidy up")
    done = subprocess.run(
        [KILN, "review", "HEAD", "--repo", str(repo), "--output-format", "json"],
        capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    findings = json.loads(done.stdout)["findings"]
    hit = any(f["path"] == module for f in findings)
    HITS.append(hit)
    print(f"{module}: {len(findings)} findings, on the broken file: {hit}")


def test_at_least_one_breaking_commit_is_caught() -> None:
    print(f"embedded model: a finding on the broken file in {sum(HITS)} of {len(HITS)} reviews")
    assert HITS and sum(HITS) >= 1
