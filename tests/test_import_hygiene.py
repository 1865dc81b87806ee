"""Import boundaries: the core never imports Textual (proven in a fresh interpreter) and no
module of kiln imports itself back through others (no cycles). The contracts between
packages live in pyproject.toml ([tool.importlinter]) and run in CI as `lint-imports`."""

from __future__ import annotations

import importlib.util
import pkgutil
import subprocess
import sys
from pathlib import Path

import grimp

import agent
import sandbox

FRONT_END = ("textual", "tui", "themes")


def _modules(package: object) -> list[str]:
    name = package.__name__  # type: ignore[attr-defined]
    paths = [str(Path(p)) for p in package.__path__]  # type: ignore[attr-defined]
    return [name] + [m.name for m in pkgutil.walk_packages(paths, prefix=name + ".")]


# The embedded model's server process runs in the model runtime's environment, which has
# llama_cpp; the suite's environment may not, and then it cannot be imported at all.
MODEL_RUNTIME_ONLY = (
    () if importlib.util.find_spec("llama_cpp") else ("agent.local.server_process",)
)
CORE_MODULES = [m for m in _modules(agent) + _modules(sandbox) if m not in MODEL_RUNTIME_ONLY]


def test_the_walk_finds_every_core_package() -> None:
    for expected in ("agent.run.loop", "agent.session", "agent.commands", "sandbox.base"):
        assert expected in CORE_MODULES
    assert len(CORE_MODULES) > 80


def test_no_core_module_imports_textual() -> None:
    code = (
        "import importlib, sys\n"
        f"for m in {CORE_MODULES!r}: importlib.import_module(m)\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FRONT_END!r}]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), lazy imports included."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while not group or group[-1] != module:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_no_import_cycles() -> None:
    graph = grimp.build_graph("agent", "sandbox", "tui", "themes")
    assert _cycles(graph) == []


def test_a_cycle_would_be_found() -> None:
    graph = grimp.ImportGraph()
    for module in ("a", "b", "c"):
        graph.add_module(module)
    graph.add_import(importer="a", imported="b")
    graph.add_import(importer="b", imported="a")
    graph.add_import(importer="b", imported="c")
    assert _cycles(graph) == [["a", "b"]]


def test_parsing_any_command_line_imports_no_event_loop() -> None:
    # Every `kiln` command builds the whole parser first; `kiln sessions list` or `kiln run`
    # must not pay for asyncio (or a review's modules) before it knows what it runs.
    code = (
        "import sys\n"
        "from agent.cli import _build_parser\n"
        "_build_parser().parse_args(['review', '--staged'])\n"
        "print(','.join(m for m in ('asyncio', 'agent.review.cli') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
