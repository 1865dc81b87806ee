"""Must hold: a run that starts on a stub and its failing tests asks a small model for the
whole module, from the task and the repository's instructions file, never mutating the
stub; the module that passes is kept, and one that passes more than the stub but not all
is handed back with its failures; every request carries the task."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agent.events import CandidateKind, CandidatesTried, Finished
from agent.llm.scripted.server import ScriptedServer
from agent.prompts.implement import compact_tests, failures_shown, module_from_reply
from agent.repair import implement
from agent.repair.stubs import stubbed_names
from agent.settings import trust
from agent.tools import testdigest
from tests.conftest import make_git_repo
from tests.repair.test_rewrites import _run, block
from tests.scripted import small_model_session

INSTRUCTIONS = "# Seasons\n\nGiven a month number, say which season of the year it falls in.\n"
STUB = 'def season(month):\n    """The season of `month`, 1 to 12."""\n    pass\n'
TESTS = (
    "import unittest\n\nfrom seasons import season\n\n\n"
    "class SeasonTest(unittest.TestCase):\n"
    "    def test_winter(self):\n        self.assertEqual(season(1), 'winter')\n\n"
    "    def test_summer(self):\n        self.assertEqual(season(7), 'summer')\n"
)
HALF = "def season(month):\n    return 'winter'\n"
WHOLE = (
    "def season(month):\n    return ['winter', 'spring', 'summer', 'autumn'][(month % 12) // 3]\n"
)
TASK = "Implement the seasons module from the instructions."


def exercise(tmp_path: Path) -> Path:
    files = {".docs/instructions.md": INSTRUCTIONS, "seasons.py": STUB, "seasons_test.py": TESTS}
    return make_git_repo(tmp_path / "repo", files)


def asks(requests: list[Any]) -> list[str]:
    return ["\n".join(m["content"] or "" for m in r.body["messages"]) for r in requests]


async def test_a_stub_is_implemented_whole_and_kept_when_it_passes(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = exercise(tmp_path)
    other_half = HALF.replace("winter", "summer")
    script = [block(HALF), block(other_half), block(WHOLE)]
    events, diff, requests = await _run(repo, script, task=TASK)
    [tried] = [e for e in events if isinstance(e, CandidatesTried)]
    assert (tried.tried, tried.passing, tried.chosen) == (3, 1, "implemented seasons.py")
    assert tried.how is CandidateKind.MODULE
    finished = events[-1]
    assert isinstance(finished, Finished) and finished.status == "done"
    assert "+    return ['winter', 'spring', 'summer', 'autumn']" in diff and "-    pass" in diff
    texts = asks(requests)
    assert len(texts) == 3 and all(TASK in t and "month number" in t for t in texts)
    # Two samples, then the one that came first among the closest is handed back with the
    # test it still fails.
    assert "return 'winter'" in texts[2] and "test_summer" in texts[2]


def test_a_stub_is_told_from_code_that_does_something() -> None:
    assert stubbed_names(STUB) == ["season"]
    assert stubbed_names("def f():\n    raise NotImplementedError('soon')\n") == ["f"]
    assert stubbed_names("class A:\n    def m(self):\n        ...\n") == ["m"]
    assert stubbed_names(WHOLE) == [] and stubbed_names("def f(:\n") == []


def test_a_reply_must_keep_the_stubs_names_and_parse() -> None:
    assert module_from_reply(f"Here:\n```python\n{WHOLE}```\n", STUB) == WHOLE
    assert module_from_reply("```python\ndef other():\n    return 1\n```", STUB) is None
    assert module_from_reply("```python\ndef season(:\n```", STUB) is None


def test_long_tests_are_shown_whole_function_by_function_across_the_file() -> None:
    header = "# generated from the shared cases\nimport unittest\n\nfrom seasons import season\n"
    cases = "".join(
        f"    # case {i}\n    def test_month_{i}(self):\n"
        f"        self.assertEqual(season({i}), 'x#{i}')\n\n"
        for i in range(1, 41)
    )
    source = f"{header}\n\nclass SeasonTest(unittest.TestCase):\n{cases}"
    shown = compact_tests(source, 1200)
    assert len(shown) <= 1200 + 60  # the budget, and the line that says what was left out
    assert "# generated" not in shown and "# case" not in shown  # comment lines dropped
    assert "'x#7'" in source and "from seasons import season" in shown
    kept = [int(n) for n in re.findall(r"def test_month_(\d+)", shown)]
    assert kept == sorted(kept) and kept[0] == 1 and kept[-1] > 30  # spread over the file
    for n in kept:  # each kept test whole
        assert f"def test_month_{n}(self):\n        self.assertEqual(season({n}), 'x#{n}')" in shown
    assert f"# ... {40 - len(kept)} more tests not shown" in shown
    assert compact_tests(TESTS, 1200).split() == TESTS.split()  # short tests: all of them


async def test_samples_go_on_past_their_share_while_none_beats_the_stub(
    docker_ready: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The implementing share is spent at once, but a module that passes no more than the
    # stub gives the rewrites nothing to repair: sampling goes on until one works.
    monkeypatch.setattr(implement, "WALL_CLOCK_SHARE", 0.0)
    repo = exercise(tmp_path)
    (repo / ".kiln.toml").write_text("[limits]\ntimeout_s = 120\n")
    trust.trust(repo)  # a repository's wall clock is honoured from a trusted file only
    nothing = "def season(month):\n    return 'none'\n"
    events, diff, _ = await _run(repo, [block(nothing), block(WHOLE)], task=TASK)
    [tried] = [e for e in events if isinstance(e, CandidatesTried)]
    assert (tried.tried, tried.passing, tried.how) == (2, 1, CandidateKind.MODULE)
    assert events[-1].status == "done" and "'autumn']" in diff


async def test_a_model_that_echoes_the_module_it_is_handed_gets_fresh_samples_instead(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = exercise(tmp_path)
    wrong = [block(f"def season(month):\n    return 'x{i}'\n") for i in range(4)]
    echo = block(HALF)  # an improvement of HALF that answers with HALF unchanged
    script = [block(HALF), wrong[0], echo, wrong[1], echo, wrong[2], echo, wrong[3], block(WHOLE)]
    with ScriptedServer(script) as server:
        async with small_model_session(repo, server, candidates=5) as session:  # 10 turns
            events = [e async for e in session.run(TASK)]
            diff = await session.diff()
        requests = list(server.chat_requests)
    assert events[-1].status == "done" and "'autumn']" in diff
    improving = ["still fail" in text for text in asks(requests)]
    # Three echoes of the best module, then the turn that would improve it again samples.
    assert improving == [False, False, True, False, True, False, True, False, False]


def _pytest_digest(tmp_path: Path, tests: str) -> testdigest.TestDigest:
    (tmp_path / "test_m.py").write_text(tests)
    command = [sys.executable, "-m", "pytest", "-q", "-rfE", "--color=no", "-p", "no:cacheprovider"]
    run = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True)
    return testdigest.digest("pytest", run.stdout + run.stderr, run.returncode)


def test_an_improvement_turns_through_every_failure_past_the_digests_text(
    tmp_path: Path,
) -> None:
    # 30 failures of about 200 characters each: the digest's text keeps the first 10.
    tests = "".join(
        f"def test_month_{i}():\n    got = 'winter'\n    assert got == 'month {i} ' + 'x' * 40\n\n"
        for i in range(30)
    )
    report = _pytest_digest(tmp_path, tests)
    assert "-- test_month_29" not in report.text and len(report.failures) == 30
    seen: set[str] = set()
    views = [failures_shown(report, turn, 600) for turn in range(20)]
    for view in views:
        assert view.startswith("Tests FAILED: 0 passed, 30 failed") and "Failing:" not in view
        assert len(view) <= 650 and "more failures not shown" in view
        seen |= set(re.findall(r"-- (test_month_\d+)", view))
    first, second = (set(re.findall(r"-- (test_month_\d+)", v)) for v in views[:2])
    assert first and second and first.isdisjoint(second)
    assert len(seen) == 30  # every failure comes round, those the text left out too
    # Each failure under its name: the test's line and the first lines of its error.
    assert re.search(r"-- test_month_0\n>\s+assert got == .*\nE\s+AssertionError", views[0])


def test_an_improvement_shows_the_first_lines_of_a_long_error(tmp_path: Path) -> None:
    tests = (
        "def test_list():\n    assert list(range(12)) == list(range(1, 13))\n\n"
        "def test_other():\n    assert 'a' == 'b'\n"
    )
    view = failures_shown(_pytest_digest(tmp_path, tests), 0, 600)
    account = view.split("-- test_list\n")[1].split("\n\n")[0].splitlines()
    # The test's line and the first two lines of the error (pytest writes more of them,
    # how many depends on its verbosity).
    assert [line[0] for line in account[:3]] == [">", "E", "E"], account
    assert sum(line.startswith("E") for line in account) == 2, account
    # With one failure there is nothing to turn through: the digest's text, cut to fit.
    single = _pytest_digest(tmp_path, "def test_x():\n    assert 1 == 2\n")
    assert failures_shown(single, 3, 600) == single.text
