"""ARCHITECTURE.md's map against the code: every package of agent/ has its row, each row's
"may import" column names what the package does import, and nothing it names sits above
it in the layers contract of pyproject.toml (which lint-imports enforces)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
# Up to these words the column says what a package may import; after them, what it never does.
NEGATIONS = re.compile(r"\bnever\b|\bnone of it\b|\bnothing but\b|\bnothing of kiln\b|\bnothing\b")


CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())
(CONTRACT,) = [c for c in CONFIG["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
# The contract's own exceptions, each with its reason there: importer -> imported.
IGNORED = [tuple(rule.split(" -> ")) for rule in CONTRACT.get("ignore_imports", [])]


def _layers() -> dict[str, int]:
    """Each module of the layers contract (agent.X or agent.X.Y) -> its layer, 0 the top."""
    contract = CONTRACT
    found: dict[str, int] = {}
    for depth, layer in enumerate(contract["layers"]):
        for name in re.split(r"[:|]", layer):
            found[f"agent.{name.strip()}"] = depth
    return found


def _rows() -> dict[str, str]:
    """`agent/X/` or `agent/X.py` -> its "may import" column."""
    rows: dict[str, str] = {}
    for line in (ROOT / "ARCHITECTURE.md").read_text().splitlines():
        match = re.match(r"\| `agent/([\w/]+?)(?:/|\.py)` \|", line)
        if match:
            rows["agent." + match.group(1).replace("/", ".")] = line.rstrip(" |").split(" | ")[-1]
    return rows


LAYERS = _layers()
ROWS = _rows()


def layer_of(module: str) -> int | None:
    """The layer of `module`: its own entry, else its nearest listed ancestor's; a package
    split by module (vcs, review, hooks) sits as low as its lowest part."""
    parts = module.split(".")
    for end in range(len(parts), 1, -1):
        if ".".join(parts[:end]) in LAYERS:
            return LAYERS[".".join(parts[:end])]
    split = [d for m, d in LAYERS.items() if m.startswith(module + ".")]
    return max(split) if split else None


def top_layer(package: str) -> int:
    """The highest layer any part of `package` sits in (a package split by module)."""
    own = [d for m, d in LAYERS.items() if m == package or m.startswith(package + ".")]
    assert own, f"{package} is in no layer of the contract"
    return min(own)


def allowed(column: str) -> str:
    """What the column allows, without its asides in parentheses (which part, how)."""
    return re.sub(r"\([^)]*\)", "", NEGATIONS.split(column, maxsplit=1)[0])


def excepted(package: str, module: str) -> bool:
    """The contract lets a part of `package` import `module` (an ignore_imports rule)."""
    return any(
        (src == package or src.startswith(package + ".")) and module.startswith(dst)
        for src, dst in IGNORED
    )


def named(column: str) -> set[str]:
    """The kiln packages and modules a column names (`run`, `llm.base`, `vcs.gitcmd`)."""
    tops = {m.split(".")[1] for m in LAYERS}
    words = re.findall(r"[a-z_]+(?:\.[a-z_]+)*", column)
    return {f"agent.{w}" for w in words if w.split(".")[0] in tops}


def test_every_package_of_agent_has_its_row() -> None:
    packages = {
        f"agent.{p.stem}"
        for p in (ROOT / "agent").iterdir()
        if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").exists()
    }
    assert packages == set(ROWS), "ARCHITECTURE.md's table and agent/ differ"


@pytest.mark.parametrize("package", sorted(ROWS))
def test_what_a_row_may_import_sits_at_or_below_it(package: str) -> None:
    if "anything" in ROWS[package]:
        return  # the entry point
    high = top_layer(package)
    for module in named(allowed(ROWS[package])):
        depth = layer_of(module)
        assert depth is not None, f"{package}'s row names {module}, which is in no layer"
        assert depth >= high or excepted(package, module), (
            f"{package}'s row lets it import {module}, a layer above it"
        )


@pytest.mark.parametrize("package", sorted(CONTRACT.get("exhaustive_ignores", [])))
def test_a_package_split_across_layers_has_each_module_in_one(package: str) -> None:
    """The contract leaves a split package out of its exhaustive check; each of its modules
    is placed instead, so a new one cannot slip past the layers."""
    folder = ROOT / "agent" / package
    modules = {f"agent.{package}.{p.stem}" for p in folder.glob("*.py") if p.stem != "__init__"}
    modules |= {f"agent.{package}.{p.parent.name}" for p in folder.glob("*/__init__.py")}
    assert modules, f"agent/{package}/ holds no module"
    assert sorted(m for m in modules if m not in LAYERS) == []


def test_hooks_sit_where_the_settings_can_read_them_and_they_can_read_the_settings() -> None:
    """`[hooks]` is a setting (settings.config reads hooks.config), and the session's hooks
    are loaded from the settings (hooks.load): the one below the settings, the other above."""
    assert LAYERS["agent.hooks.config"] > LAYERS["agent.settings"]
    for part in ("load", "runner", "points"):
        assert LAYERS[f"agent.hooks.{part}"] == LAYERS["agent.tools"] < LAYERS["agent.settings"]
    assert LAYERS["agent.permissions"] > LAYERS["agent.settings"]


GRAPH = grimp.build_graph("agent", "sandbox", cache_dir=None)


@pytest.mark.parametrize("package", sorted(ROWS))
def test_a_row_names_every_package_its_code_imports(package: str) -> None:
    if "anything" in ROWS[package]:
        return
    mine = {m for m in GRAPH.modules if m == package or m.startswith(package + ".")}
    imported = {
        ".".join(i.split(".")[:2])
        for m in mine
        for i in GRAPH.find_modules_directly_imported_by(m)
        if i.startswith("agent.") and not (i == package or i.startswith(package + "."))
    }
    if "below it" in allowed(ROWS[package]):  # the session: whatever sits under it
        high = top_layer(package)
        imported = {i for i in imported if top_layer(i) < high}
    listed = {".".join(m.split(".")[:2]) for m in named(allowed(ROWS[package]))}
    assert imported <= listed, f"{package} imports {sorted(imported - listed)}, not in its row"
