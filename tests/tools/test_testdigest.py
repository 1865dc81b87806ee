"""Test detection on real directories and digests of real pytest and unittest output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agent.tools.testdigest import DIGEST_CAP, detect_test_command, digest

FAILING_PYTEST = {
    "calc.py": "def add(a, b):\n    return a - b\n\ndef div(a, b):\n    return a / b\n",
    "test_calc.py": (
        "from calc import add, div\n\n"
        "def test_add():\n    assert add(2, 3) == 5, 'add is broken'\n\n"
        "def test_div():\n    assert div(1, 0) == 0\n\n"
        "def test_ok():\n    assert True\n"
    ),
}


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"pytest.ini": "[pytest]\n"}, "pytest"),
        ({"pyproject.toml": "[tool.pytest.ini_options]\n"}, "pytest"),
        ({"tests/conftest.py": ""}, "pytest"),
        ({"test_x.py": "def test_a():\n    assert 1\n"}, "pytest"),
        ({"test_x.py": "import unittest\nclass T(unittest.TestCase):\n    pass\n"}, "unittest"),
        ({"package.json": json.dumps({"scripts": {"test": "jest"}})}, "npm test"),
        ({"go.mod": "module x\n"}, "go test ./..."),
        ({"Cargo.toml": "[package]\n"}, "cargo test"),
        ({"Makefile": "all:\n\ttrue\ntest:\n\ttrue\n"}, "make test"),
        ({"README.md": "nothing to test"}, ""),
    ],
)
def test_detects_the_runner(tmp_path: Path, files: dict[str, str], expected: str) -> None:
    command = detect_test_command(_write(tmp_path, files))
    assert (expected in command) if expected else command == ""


def test_npm_placeholder_script_is_not_a_test_command(tmp_path: Path) -> None:
    package = {"scripts": {"test": 'echo "Error: no test specified" && exit 1'}}
    assert "npm" not in detect_test_command(_write(tmp_path, {"package.json": json.dumps(package)}))


def test_configured_command_wins(tmp_path: Path) -> None:
    _write(tmp_path, {"pytest.ini": "[pytest]\n"})
    assert detect_test_command(tmp_path, "make check") == "make check"


def test_digest_of_real_pytest_output(tmp_path: Path) -> None:
    _write(tmp_path, FAILING_PYTEST)
    command = [sys.executable, "-m", "pytest", "-q", "-rfE", "--color=no", "-p", "no:cacheprovider"]
    proc = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True)
    report = digest("pytest", proc.stdout + proc.stderr, proc.returncode)
    assert (report.passed, report.failed, report.errors) == (1, 2, 0)
    assert report.failing == ("test_calc.py::test_add", "test_calc.py::test_div")
    assert "add is broken" in report.text
    assert "ZeroDivisionError" in report.text
    assert "calc.py:5" in report.text  # the traceback line pointing into the code
    # Each failure under its test's name, the first one too.
    assert report.text.index("-- test_add") < report.text.index("add is broken")
    assert report.text.index("-- test_div") < report.text.index("ZeroDivisionError")
    assert not report.ok
    # The same failures one by one, each its own account under its title.
    assert [f.splitlines()[0] for f in report.failures] == ["-- test_add", "-- test_div"]
    assert "add is broken" in report.failures[0] and "ZeroDivisionError" in report.failures[1]


def test_digest_of_real_unittest_output(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "calc.py": "def add(a, b):\n    return a - b\n",
            "test_calc.py": (
                "import unittest\nfrom calc import add\n\n"
                "class T(unittest.TestCase):\n"
                "    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n"
                "    def test_boom(self):\n        raise KeyError('k')\n"
                "    def test_fine(self):\n        pass\n"
            ),
        },
    )
    proc = subprocess.run(
        [sys.executable, "-m", "unittest", "discover", "-v"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    report = digest("unittest", proc.stdout + proc.stderr, proc.returncode)
    assert (report.passed, report.failed, report.errors) == (1, 1, 1)
    assert any(name.startswith("test_add") for name in report.failing)
    assert "AssertionError: -1 != 5" in report.text
    assert "KeyError" in report.text
    assert 'test_calc.py", line 6' in report.text
    titles = sorted(f.split(" ")[0] for f in report.failures)
    assert titles == ["ERROR:", "FAIL:"] and any("KeyError" in f for f in report.failures)


def test_passing_run_and_huge_output_stay_small() -> None:
    passing = digest("pytest", "....\n4 passed in 0.01s\n", 0)
    assert passing.ok and passing.passed == 4
    noise = "\n".join(f"line {i} of a runner nobody parses" for i in range(200_000))
    report = digest("weird-runner", noise, 2)
    assert not report.ok and report.errors == 1
    assert len(report.text) <= DIGEST_CAP
    assert "line 199999" in report.text  # the generic fallback keeps the tail


def test_go_and_cargo_and_jest_counts() -> None:
    go = digest(
        "go test", "--- FAIL: TestAdd (0.00s)\n    calc_test.go:9: got -1\nFAIL\tx\t0.1s\n", 1
    )
    assert go.failed == 1 and go.failing == ("TestAdd",) and "calc_test.go:9" in go.text
    cargo = digest(
        "cargo test",
        "test t::a ... FAILED\ntest result: FAILED. 3 passed; 1 failed; 0 ignored\n",
        101,
    )
    assert (cargo.passed, cargo.failed) == (3, 1) and cargo.failing == ("t::a",)
    jest = digest("npm test", "  ● adds\nTests:       1 failed, 2 passed, 3 total\n", 1)
    assert (jest.passed, jest.failed) == (2, 1)
    # Their output does not come apart by test: the text alone carries the failures.
    assert go.failures == cargo.failures == jest.failures == ()


# What `node --test` (node 20) writes when not on a terminal.
NODE_TAP = """TAP version 13
# Subtest: adds
ok 1 - adds
  ---
  duration_ms: 0.3
  ...
# Subtest: ten percent off
not ok 2 - ten percent off
  ---
  duration_ms: 1.2
  location: '/workspace/test/price.test.js:10:1'
  failureType: 'testCodeFailure'
  error: |-
    Expected values to be strictly equal:

    9000 !== 900

  code: 'ERR_ASSERTION'
  stack: |-
    TestContext.<anonymous> (/workspace/test/price.test.js:11:10)
    Test.runInAsyncScope (node:async_hooks:206:9)
  ...
1..2
# tests 2
# pass 1
# fail 1
"""


def test_node_tap_output() -> None:
    report = digest("node --test", NODE_TAP, 1)
    assert (report.passed, report.failed, report.errors) == (1, 1, 0)
    assert report.failing == ("ten percent off",)
    assert "9000 !== 900" in report.text and "price.test.js:11:10" in report.text
    assert "node:async_hooks" not in report.text and "duration_ms" not in report.text
    assert len(report.failures) == 1 and report.failures[0].startswith("not ok: ten percent off")
