"""Must hold: dataclass methods compiled in one kiln process are reused by the next, the
classes behave exactly as without the cache, and a cache that cannot be read or written
changes nothing but the time."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from pathlib import Path

from agent import dataclass_code
from tests.conftest import make_git_repo

# Defines dataclasses of every kind after install(), reports how they behave and how
# many texts were compiled, then saves as the CLI does.
CHILD = r"""
import builtins, dataclasses, json, sys
from agent import dataclass_code

compiled = []
real_compile = builtins.compile
def counting_compile(*args, **kwargs):
    compiled.append(args[0])
    return real_compile(*args, **kwargs)
builtins.compile = counting_compile

dataclass_code.install()

@dataclasses.dataclass(frozen=True)
class Point:
    x: int
    y: int = 2
    tags: tuple[str, ...] = ()

@dataclasses.dataclass
class Box:
    items: list[int] = dataclasses.field(default_factory=list)
    size: int = dataclasses.field(init=False, default=0)
    def __post_init__(self):
        self.size = len(self.items)

@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class Event:
    name: str

p = Point(1)
try:
    p.x = 5
    frozen = False
except dataclasses.FrozenInstanceError:
    frozen = True
report = {
    "repr": repr(p),
    "eq": Point(1) == Point(1, 2) and Point(1) != Point(2),
    "hash": hash(Point(1)) == hash(Point(1, 2)),
    "frozen": frozen,
    "replace": repr(dataclasses.replace(p, y=7)),
    "box": repr(Box([4, 5])),
    "identity": Event("a") != Event("a"),
    "compiled": sum(1 for text in compiled if "__create_fn__" in str(text)),
}
dataclass_code.save()
print(json.dumps(report))
"""


def _child(cache_home: Path) -> dict[str, object]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home)}
    done = subprocess.run(
        [sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, object] = json.loads(done.stdout)
    return report


def _cache(cache_home: Path) -> Path:
    return cache_home / "kiln" / dataclass_code.cache_file().name


EXPECTED = {
    "repr": "Point(x=1, y=2, tags=())",
    "eq": True,
    "hash": True,
    "frozen": True,
    "replace": "Point(x=1, y=7, tags=())",
    "box": "Box(items=[4, 5], size=2)",
    "identity": True,
}


def test_the_second_process_compiles_nothing_and_its_classes_behave_the_same(
    tmp_path: Path,
) -> None:
    first = _child(tmp_path)
    assert first.pop("compiled") == 12  # Point 6, Box 3, Event 3 (init, setattr, delattr)
    assert first == EXPECTED
    cache = _cache(tmp_path)
    written = cache.stat().st_mtime_ns

    second = _child(tmp_path)
    assert second.pop("compiled") == 0
    assert second == EXPECTED
    assert cache.stat().st_mtime_ns == written  # nothing new: nothing written


def test_a_cache_that_cannot_be_read_is_compiled_again_and_replaced(tmp_path: Path) -> None:
    cache = _cache(tmp_path)
    cache.parent.mkdir(parents=True)
    for broken in (b"not marshal at all", marshal.dumps([1, 2]), b""):
        cache.write_bytes(broken)
        report = _child(tmp_path)
        assert report.pop("compiled") == 12
        assert report == EXPECTED
    # A known text whose code does not unmarshal is compiled again, not trusted.
    stored = marshal.loads(cache.read_bytes())
    cache.write_bytes(marshal.dumps({text: b"\x00garbage" for text in stored}))
    report = _child(tmp_path)
    assert report.pop("compiled") == 12
    assert report == EXPECTED
    assert _child(tmp_path)["compiled"] == 0  # and the file was made whole again


def test_a_cache_that_cannot_be_written_changes_nothing(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("the cache's folder cannot be made under a file\n")
    report = _child(blocker)
    assert report.pop("compiled") == 12
    assert report == EXPECTED


def test_the_kiln_command_keeps_the_code_of_its_classes(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", {"a.py": "x = 1\n"})
    argv = [sys.executable, "-m", "agent.cli", "config", "show", "--repo", str(repo)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    stored = marshal.loads(dataclass_code.cache_file().read_bytes())
    assert sum("def __init__(" in text for text in stored) > 10  # settings, rules, ...
