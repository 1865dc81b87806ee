"""A small repository with one bug and the scripted model turns that fix it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.conftest import make_git_repo

CALC = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n"
FIXED = CALC.replace("return a - b\n\n\n", "return a + b\n\n\n", 1)
TEST = (
    "import unittest\n\nfrom calc import add, sub\n\n\n"
    "class CalcTest(unittest.TestCase):\n"
    "    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n\n"
    "    def test_sub(self):\n        self.assertEqual(sub(5, 3), 2)\n"
)


def calc_repo(path: Path) -> Path:
    return make_git_repo(path, {"calc.py": CALC, "test_calc.py": TEST})


def fix_calc_turns() -> list[dict[str, Any]]:
    plan = [
        {"title": "read calc.py", "status": "done"},
        {"title": "fix add()", "status": "in_progress"},
        {"title": "run the tests", "status": "pending"},
    ]
    return [
        {
            "text": "Let me look at `calc.py` first.",
            "tool_calls": [
                {"name": "update_plan", "arguments": {"steps": plan}},
                {"name": "read_file", "arguments": {"path": "calc.py"}},
            ],
        },
        {
            "text": "`add` subtracts. I will **fix the operator**.",
            "tool_calls": [
                {
                    "name": "edit_file",
                    "arguments": {
                        "path": "calc.py",
                        "old_text": "def add(a, b):\n    return a - b",
                        "new_text": "def add(a, b):\n    return a + b",
                    },
                }
            ],
        },
        {"text": "Now the tests.", "tool_calls": [{"name": "run_tests", "arguments": {}}]},
        {
            "text": "All tests pass.",
            "tool_calls": [{"name": "finish", "arguments": {"summary": "Fixed `add` in calc.py."}}],
        },
    ]
