"""find_symbol and read_file's outline through a real Docker sandbox."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from agent import tools
from agent.settings.config import load_settings
from sandbox.base import Sandbox
from sandbox.factory import create_sandbox
from tests.conftest import make_git_repo
from tests.scripted import tool_context

BIG = "".join(f"def step_{i}(x):\n    return x + {i}\n\n" for i in range(200))  # 600 lines
REPO = {
    "calc.py": (
        "class Calculator:\n"
        "    def add(self, a, b):\n"
        "        return a - b\n\n"
        "    def sub(self, a, b):\n"
        "        return a - b\n\n\n"
        "def add(a, b):\n    return Calculator().add(a, b)\n"
    ),
    "steps.py": BIG,
}


@pytest.fixture
async def box(docker_ready: None, tmp_path: Path) -> AsyncIterator[Sandbox]:
    repo = make_git_repo(tmp_path / "repo", REPO)
    sandbox = create_sandbox(repo, load_settings(repo, env={}).sandbox)
    await sandbox.start()
    try:
        yield sandbox
    finally:
        await sandbox.close()


async def test_find_symbol_shows_code_and_the_file_around_it(box: Sandbox) -> None:
    ctx = tool_context(box)
    found = await tools.call(ctx, "find_symbol", {"name": "Calculator.add"})
    assert found.ok
    assert found.output.startswith("calc.py:2-3 method add\n    2\t    def add(self, a, b):")
    assert "    3\t        return a - b" in found.output
    assert ">    2     def add(self, a, b):" in found.output  # the map lines around it
    assert "    5     def sub(self, a, b):" in found.output
    both = await tools.call(ctx, "find_symbol", {"name": "add"})
    assert "calc.py:2-3 method add" in both.output and "calc.py:9-10 function add" in both.output


async def test_find_symbol_sees_what_the_model_changed(box: Sandbox) -> None:
    ctx = tool_context(box)
    assert (
        "No definition of multiply"
        in (await tools.call(ctx, "find_symbol", {"name": "multiply"})).output
    )
    await box.write_file("ops/more.py", b"def multiply(a, b):\n    return a * b\n")
    await tools.call(
        ctx,
        "edit_file",
        {"path": "calc.py", "old_text": "    def sub(", "new_text": "    def minus("},
    )
    found = await tools.call(ctx, "find_symbol", {"name": "multiply"})
    assert found.output.startswith("ops/more.py:1-2 function multiply")
    gone = await tools.call(ctx, "find_symbol", {"name": "sub"})
    assert "No definition of sub" in gone.output
    assert ctx.repo_index is not None and "ops/more.py" in ctx.repo_index.overlay


async def test_reading_a_big_file_gives_a_window_and_an_outline(box: Sandbox) -> None:
    ctx = tool_context(box)
    whole = await tools.call(ctx, "read_file", {"path": "steps.py"})
    assert whole.ok and whole.truncated
    lines = whole.output.splitlines()
    assert lines[0] == "    1\tdef step_0(x):" and lines[199].startswith("  200\t")
    assert "  598-599   def step_199(x):" in whole.output  # the outline covers the whole file
    assert "start_line=201" in whole.output
    part = await tools.call(ctx, "read_file", {"path": "steps.py", "start_line": 598})
    assert part.output.splitlines()[0] == "  598\tdef step_199(x):"
