"""Must hold: when the model's rewrite fixes the bug and breaks something else, kiln tries
each of its changes alone, and the rewrite without each; the tests pick the one kept, and
the person is told it was part of a rewrite."""

from __future__ import annotations

from pathlib import Path

from agent.events import CandidateKind, CandidatesTried
from agent.repair.partial import MAX_CHANGES, parts_of
from agent.repair.suspects import Suspect
from tests.conftest import make_git_repo
from tests.repair.test_rewrites import _run, block

CLOCK = 'def clock(minutes):\n    hours, rest = divmod(minutes, 60)\n    return f"{hours}:{rest}"\n'
# Pads the minutes, as it should, and the hours, as it should not.
PADDED_BOTH = 'def clock(minutes):\n    hours, rest = divmod(minutes, 60)\n    return f"{hours:02}:{rest:02}"\n'


def _suspect(text: str) -> Suspect:
    return Suspect("clock.py", "clock", 1, text.count("\n"), text.rstrip("\n"))


def test_each_change_is_tried_alone_then_left_out() -> None:
    made = [v.after for v in parts_of(_suspect(CLOCK), PADDED_BOTH.rstrip("\n"))]
    assert made == ['return f"{hours:02}:{rest}"', 'return f"{hours}:{rest:02}"']  # n=2: no repeats
    three = CLOCK.replace("divmod(minutes, 60)", "divmod(minutes, 60) or (0, 0)")
    three = three.replace('f"{hours}:{rest}"', 'f"{hours:02}:{rest:02}"').rstrip("\n")
    variants = parts_of(_suspect(CLOCK), three)
    assert len(variants) == 6 and all(v.of_rewrite for v in variants)
    left_out_first = variants[3].text  # the first of the three left out, the others kept
    assert 'f"{hours:02}:{rest:02}"' in left_out_first and "or (0, 0)" not in left_out_first


def test_a_rewrite_of_one_change_or_a_new_function_is_not_taken_apart() -> None:
    suspect = _suspect(CLOCK)
    one = CLOCK.replace("{rest}", "{rest:02}").rstrip("\n")
    assert parts_of(suspect, one) == []  # the rewrite itself, tested already
    reindented = CLOCK.replace("    return", "      return").replace("{rest}", "{rest:02}")
    assert parts_of(suspect, reindented.rstrip("\n")) == []  # whitespace is no change
    lines = "".join(f"    a{i} = {i}\n" for i in range(MAX_CHANGES + 1))
    long = Suspect("m.py", "f", 1, MAX_CHANGES + 3, f"def f():\n{lines}    return a0")
    every_line = long.text.replace(" = ", " = 1 + ")
    assert parts_of(long, every_line) == []  # more changes than a fix with a slip in it
    broken = CLOCK.replace("divmod(minutes, 60)", "(divmod(minutes, 60)").replace(
        "{rest}", "{rest:02}"
    )
    assert all("(divmod" not in v.text for v in parts_of(suspect, broken.rstrip("\n")))


async def test_the_part_of_a_rewrite_that_passes_is_kept(
    docker_ready: None, tmp_path: Path
) -> None:
    files = {
        "clock.py": CLOCK,
        "test_clock.py": (
            "import unittest\n\nfrom clock import clock\n\n\n"
            "class T(unittest.TestCase):\n    def test_pads_minutes(self):\n"
            '        self.assertEqual(clock(125), "2:05")\n'
            '        self.assertEqual(clock(600), "10:00")\n'
        ),
    }
    repo = make_git_repo(tmp_path / "repo", files)
    events, diff, requests = await _run(repo, [block(PADDED_BOTH)])
    [tried] = [e for e in events if isinstance(e, CandidatesTried)]
    assert tried.passing == 1 and tried.how is CandidateKind.PART_OF_REWRITE
    assert tried.tried == 3  # the rewrite, its first change alone, its second
    assert tried.chosen == (
        'kept part of a rewrite of clock: changed `return f"{hours}:{rest}"` to'
        ' `return f"{hours}:{rest:02}"` in clock (clock.py)'
    )
    assert events[-1].status == "done"
    assert '+    return f"{hours}:{rest:02}"' in diff
    assert len(requests) == 1
