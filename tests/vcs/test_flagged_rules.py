"""`edit:` rules checked again on a diff's paths at apply, whatever tool changed them: a
deny rule naming any path (old or new: a rename, a deletion, an added file) refuses with
one sentence; an ask rule flags the diff."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from agent.permissions import Effect, PermissionRules, parse_rule
from agent.vcs.flagged import flags_for, refused_by_rules, ruled_paths
from tests.conftest import make_git_repo


def rules(**effects: list[str]) -> PermissionRules:
    return PermissionRules(
        tuple(parse_rule(t, Effect(name), "cfg") for name, texts in effects.items() for t in texts)
    )


@pytest.fixture
def diff(tmp_path: Path) -> str:
    """A real diff: one file changed, one renamed, one deleted, one added."""
    repo = make_git_repo(
        tmp_path / "repo",
        {"src/a.py": "a = 1\n", "src/old.py": "o = 1\n" * 20, "gone.py": "g = 1\n", "x.md": ""},
    )
    (repo / "src/a.py").write_text("a = 2\n")
    (repo / "lib").mkdir()
    subprocess.run(["git", "mv", "src/old.py", "lib/new.py"], cwd=repo, check=True)
    (repo / "gone.py").unlink()
    (repo / "added.lock").write_text("pinned\n")
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    done = subprocess.run(
        ["git", "diff", "--cached", "-M", "--binary", "--full-index"],
        cwd=repo, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return done.stdout


@pytest.mark.parametrize(
    ("rule", "paths"),
    [
        ("edit: src/a.py", ["src/a.py"]),
        ("edit: src/old.py", ["src/old.py"]),  # renamed away: the old path counts
        ("edit: lib/**", ["lib/new.py"]),  # renamed to
        ("edit: gone.py", ["gone.py"]),  # deleted
        ("edit: *.lock", ["added.lock"]),  # added
        ("edit: ./src/*", ["src/old.py", "src/a.py"]),  # in the diff's order
    ],
)
def test_a_deny_rule_naming_any_path_of_the_diff_refuses(
    diff: str, rule: str, paths: list[str]
) -> None:
    table = rules(deny=[rule])
    assert [found for _, found in ruled_paths(table, diff)] == [paths]
    refused = refused_by_rules(table, diff, "abc123")
    assert refused is not None
    assert refused[1] == (
        f"Not applied: the diff changes {', '.join(paths)}, which the rule deny `{rule.replace('./', '')}` "
        "(cfg) forbids; the changes are kept: change that rule, then run `kiln apply abc123`."
    )


def test_no_rule_naming_a_path_refuses_nothing_and_allow_is_no_refusal(diff: str) -> None:
    assert refused_by_rules(rules(deny=["edit: docs/**", "run: git*"]), diff, "s") is None
    assert refused_by_rules(rules(allow=["edit: **"]), diff, "s") is None
    assert refused_by_rules(PermissionRules(), diff, "s") is None


def test_an_ask_rule_flags_the_diff_and_deny_comes_first(tmp_path: Path, diff: str) -> None:
    repo = make_git_repo(tmp_path / "plain", {"x.md": "", "y.md": "", "z.md": ""})
    flags = flags_for(repo, diff, rules(ask=["edit: src/**"]))
    assert flags == (
        "changes src/old.py, src/a.py, which the rule ask `edit: src/**` (cfg) asks about",
    )
    assert flags_for(repo, diff) == ()
    both = rules(ask=["edit: *.py"], deny=["edit: gone.py"])
    assert [rule.effect for rule, _ in ruled_paths(both, diff)] == [Effect.DENY, Effect.ASK]
    assert [found for _, found in ruled_paths(both, diff)] == [
        ["gone.py"],
        ["src/old.py", "lib/new.py", "src/a.py"],
    ]
