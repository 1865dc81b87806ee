"""The index over real git repositories, the ranking, the budget and `kiln map`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from agent.context.graph import build_graph, rank_definitions
from agent.context.index import RepoIndex
from agent.context.repomap import map_of_index, prompt_map
from agent.present import estimate_tokens
from tests.conftest import make_git_repo

SHOP = {
    "app/checkout.py": (
        "from app.pricing import compute_total\n\n"
        "def checkout(cart):\n    return compute_total(cart)\n"
    ),
    "app/pricing.py": "def compute_total(cart):\n    return sum(cart)\n",
    "app/unrelated.py": "def render_banner():\n    return 'hi'\n\nclass Theme:\n    pass\n",
    "app/other.py": "def load_fixtures():\n    return render_banner()\n",
    "README.md": "# shop\n",
}


def test_cache_reparses_only_the_changed_file(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "shop", SHOP)
    cache = tmp_path / "tags.marshal"
    first = RepoIndex(repo, cache)
    assert first.refresh() == sorted(p for p in SHOP if p.endswith(".py"))
    assert RepoIndex(repo, cache).refresh() == []  # a new process: all from the blob
    (repo / "app/pricing.py").write_text("def compute_total(cart, tax):\n    return 0\n")
    (repo / "app/new.py").write_text("def fresh():\n    pass\n")  # untracked, not ignored
    again = RepoIndex(repo, cache)
    assert again.refresh() == ["app/new.py", "app/pricing.py"]
    assert again.records()["app/pricing.py"][0][0][4] == "def compute_total(cart, tax):"
    (repo / "app/other.py").unlink()
    assert again.refresh() == [] and "app/other.py" not in again.records()


def test_a_damaged_cache_is_rebuilt(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "shop", SHOP)
    cache = tmp_path / "tags.marshal"
    cache.write_bytes(b"not a marshal blob")
    assert len(RepoIndex(repo, cache).refresh()) == 4
    assert RepoIndex(repo, cache).refresh() == []


def test_parsing_many_files_in_worker_processes(tmp_path: Path) -> None:
    files = {f"pkg/m{i}.py": f"def f{i}():\n    return f{i + 1}()\n" for i in range(120)}
    repo = make_git_repo(tmp_path / "many", files)
    index = RepoIndex(repo, None, workers=2)
    assert len(index.refresh()) == 120
    assert index.records()["pkg/m7.py"] == ((("f7", "function", 1, 2, "def f7():"),), {"f8": 1})


def test_update_lays_the_sandbox_content_over_the_disk(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "shop", SHOP)
    index = RepoIndex(repo, None)
    index.refresh()
    index.update("app/pricing.py", "def price_with_tax(cart):\n    pass\n")
    index.update("app/other.py", None)
    records = index.records()
    assert [d[0] for d in records["app/pricing.py"][0]] == ["price_with_tax"]
    assert "app/other.py" not in records
    assert index.refresh() == []  # the disk did not change; the overlay stays
    assert [d[0] for d in index.records()["app/pricing.py"][0]] == ["price_with_tax"]


def test_focus_ranks_what_it_calls_above_unrelated_files(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "shop", SHOP)
    index = RepoIndex(repo, None)
    index.refresh()
    ranked = [path for _, path, _, _ in rank_definitions(index.records(), ["app/checkout.py"])]
    assert ranked.index("app/pricing.py") < ranked.index("app/unrelated.py")
    shown = map_of_index(index, ["app/checkout.py"], tokens=20)
    assert "compute_total" in shown and "render_banner" not in shown


def test_names_defined_in_many_files_do_not_go_quadratic() -> None:
    files = 10_000
    records = {
        f"m{i}.py": ((("run", "function", 1, 2, "def run():"),), {"run": 3}) for i in range(files)
    }
    graph = build_graph(records)
    assert graph.edge_count <= 2 * files  # through one hub, not 10^8 direct edges
    ranked = rank_definitions(records)
    assert len(ranked) == files


def test_the_map_fits_its_budget_and_is_the_same_bytes_every_time(tmp_path: Path) -> None:
    files = {
        f"lib/mod{i}.py": f"def helper_{i}(value):\n    return helper_{i + 1}(value)\n"
        for i in range(80)
    }
    repo = make_git_repo(tmp_path / "lib", files)
    small, large = prompt_map(repo, [], tokens=100), prompt_map(repo, [], tokens=800)
    assert 0 < estimate_tokens(small) <= 100 < estimate_tokens(large) <= 800
    assert prompt_map(repo, [], tokens=100) == small
    assert "    1 def helper_" in small


def _kiln(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    return subprocess.run(
        [sys.executable, "-m", "agent.cli", "map", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
    )


def test_kiln_map_prints_the_map(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "shop", SHOP)
    done = _kiln("--tokens", "50", "--focus", "app/checkout.py", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "app/pricing.py:\n    1 def compute_total(cart):" in done.stdout


@pytest.mark.parametrize("where", ["missing", "plain"])
def test_kiln_map_refuses_what_is_not_a_repository(tmp_path: Path, where: str) -> None:
    (tmp_path / "plain").mkdir()
    done = _kiln(str(tmp_path / where), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
