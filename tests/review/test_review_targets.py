"""What `kiln review` reads for each target, and the changes that are hard to read: a merge,
a first commit, renames, deletions, binary files, a diff too big for one request."""

from __future__ import annotations

import argparse
import io
import json
import os
from pathlib import Path

import pytest

from agent.llm.scripted.server import ScriptedServer
from agent.review.chunks import plan
from agent.review.cli import review_command
from agent.review.diffs import parse_diff
from agent.review.target import EMPTY_TREE, open_repo, resolve
from agent.settings.config import load_settings
from tests.conftest import make_git_repo
from tests.review.test_review import finding, finish
from tests.vcs.conftest import GIT_ENV, commit_file, git

FINISH_ONLY = [{"tool_calls": [finish("correct")]}]


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)


def args(**given: object) -> argparse.Namespace:
    defaults = dict(
        rev=None, staged=False, uncommitted=False, base=None, instructions="", min_confidence=0.5,
        no_verify_findings=True, output_format="json", fail_on=None, run_tests=False, fix=False,
    )  # fmt: skip
    return argparse.Namespace(**{**defaults, **given})


async def reviewed(repo: Path, turns: list, **given: object) -> tuple[int, dict, list]:  # type: ignore[type-arg]
    out = io.StringIO()
    settings = load_settings(repo, {"models.main.base_url": "", "models.main.model": "m"}, env={})
    with ScriptedServer(turns) as server:
        from agent.llm.base import ModelProfile
        from agent.llm.openai_compat import OpenAICompatClient

        client = OpenAICompatClient(
            ModelProfile(base_url=server.base_url, model="m", max_retries=0)
        )
        code = await review_command(
            args(**given), repo, settings, client=client, out=out, err=io.StringIO()
        )
        await client.aclose()
        seen = [r.body["messages"][-1]["content"] for r in server.chat_requests]
    return code, json.loads(out.getvalue()), seen


async def test_a_dirty_tree_is_reviewed_by_default_and_a_clean_one_at_head(
    buggy_repo: Path,
) -> None:
    (buggy_repo / "fresh.py").write_text("def fresh():\n    return 1\n")
    (buggy_repo / "README.md").write_text("shop, edited\n")
    code, result, seen = await reviewed(buggy_repo, FINISH_ONLY)
    assert result["target"] == "--uncommitted" and result["revision"] == "WORKTREE"
    assert "=== fresh.py (added)" in seen[0] and "    1 +def fresh():" in seen[0]
    assert "README.md" in seen[0] and "prices[1:]" not in seen[0]
    git(buggy_repo, "add", "fresh.py")
    code, result, seen = await reviewed(buggy_repo, FINISH_ONLY, staged=True)
    assert code == 0
    assert result["target"] == "--staged" and "fresh.py" in seen[0] and "README.md" not in seen[0]
    git(buggy_repo, "reset", "-q", "--hard")
    (buggy_repo / "fresh.py").unlink(missing_ok=True)  # reset --hard removed the added file
    _code, result, seen = await reviewed(buggy_repo, FINISH_ONLY)
    assert result["target"] == "HEAD" and "prices[1:]" in seen[0]


async def test_base_branch_reviews_everything_since_the_branch_point(buggy_repo: Path) -> None:
    git(buggy_repo, "branch", "base", "HEAD~1")
    commit_file(buggy_repo, "extra.py", "X = 1\n", "extra")
    code, result, seen = await reviewed(buggy_repo, FINISH_ONLY, base="base")
    assert code == 0 and result["target"] == "--base base"
    assert "prices[1:]" in seen[0] and "extra.py" in seen[0]
    _code, _result, seen = await reviewed(buggy_repo, FINISH_ONLY, rev="HEAD~1..HEAD")
    assert "extra.py" in seen[0] and "prices[1:]" not in seen[0]


async def test_a_merge_is_reviewed_against_its_first_parent(buggy_repo: Path) -> None:
    git(buggy_repo, "checkout", "-q", "-b", "side", "HEAD~1")
    commit_file(buggy_repo, "side.py", "S = 1\n", "side work")
    git(buggy_repo, "checkout", "-q", "main")
    git(buggy_repo, "merge", "-q", "--no-ff", "-m", "merge side", "side")
    _code, _result, seen = await reviewed(buggy_repo, FINISH_ONLY, rev="HEAD")
    assert "A merge commit" in seen[0] and "side.py" in seen[0] and "prices" not in seen[0]


async def test_the_first_commit_and_a_finding_on_it(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "first", {"shop.py": "def f():\n    return 1 / 0\n"})
    turns = [
        {"tool_calls": [finding(0, line=2, title="divides by zero")]},
        {"tool_calls": [finish()]},
    ]
    code, result, seen = await reviewed(repo, turns, rev="HEAD", fail_on="P0")
    assert code == 1 and result["findings"][0]["line"] == 2
    assert "first commit" in seen[0]
    assert resolve(open_repo(repo), "HEAD").base == EMPTY_TREE


async def test_renames_deletions_and_binary_files_become_notes(buggy_repo: Path) -> None:
    git(buggy_repo, "mv", "README.md", "READ.md")
    (buggy_repo / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0binary")
    git(buggy_repo, "add", "logo.png")
    git(buggy_repo, "rm", "-q", "shop.py")
    git(buggy_repo, "commit", "-qm", "shuffle")
    _code, result, seen = await reviewed(buggy_repo, FINISH_ONLY, rev="HEAD")
    notes = result["notes"]
    assert "logo.png: a binary file, skipped." in notes
    assert "shop.py: deleted." in notes
    assert "READ.md: renamed from README.md, content unchanged." in notes
    assert "The change is empty" not in " ".join(notes)
    assert seen == []  # nothing to read line by line: no request at all


def test_a_huge_diff_is_cut_into_parts_and_no_line_is_lost(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "big", {"keep.txt": "k\n"})
    for n in range(6):
        body = "".join(f"value_{n}_{i} = {i}\n" for i in range(400))
        (repo / f"m{n}.py").write_text(body)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "big")
    target = resolve(open_repo(repo), "HEAD")
    changes = parse_diff(target.diff)
    parts, notes = plan(changes, budget_tokens=2000)
    assert len(parts) > 6 and not notes
    shown = "\n".join(p.body for p in parts)
    for n in range(6):
        for i in range(400):
            assert f"{i + 1:>5} +value_{n}_{i} = {i}" in shown


async def test_every_part_is_a_request_and_github_annotations(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "big", {"keep.txt": "k\n"})
    for n in range(3):
        (repo / f"m{n}.py").write_text("".join(f"v{i} = {i}\n" for i in range(300)))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "big")
    summary = tmp_path / "summary.md"
    os.environ["GITHUB_STEP_SUMMARY"] = str(summary)
    try:
        turns = [
            {"tool_calls": [{"name": "report_finding", "arguments": {
                "path": f"m{n}.py", "line": 5 + i, "priority": i % 4, "confidence": 0.9,
                "category": "style", "title": f"nit {n}.{i}", "body": "a, b: 100%"}} for i in range(5)]}
            for n in range(3)
        ]  # fmt: skip
        script = [t for turn in turns for t in (turn, {"tool_calls": [finish()]})]
        out = io.StringIO()
        settings = load_settings(repo, {"models.main.context_window": 4000}, env={})
        with ScriptedServer(script) as server:
            from agent.llm.base import ModelProfile
            from agent.llm.openai_compat import OpenAICompatClient

            profile = ModelProfile(base_url=server.base_url, model="m", context_window=4000)
            client = OpenAICompatClient(profile)
            await review_command(args(output_format="github", rev="HEAD"), repo, settings,
                                 client=client, out=out, err=io.StringIO())  # fmt: skip
            await client.aclose()
            assert len(server.chat_requests) == 6  # three parts, two requests each
    finally:
        del os.environ["GITHUB_STEP_SUMMARY"]
    lines = out.getvalue().splitlines()
    annotations = [line for line in lines if line.startswith(("::error", "::warning"))]
    assert len(annotations) == 10
    assert annotations[0].startswith("::error file=m") and "title=[P0] nit" in annotations[0]
    assert annotations[0].endswith("::a, b: 100%25")
    # The most severe ten: six P0 and three P1 are errors, then the first P2 a warning.
    assert [a.split(" ")[0] for a in annotations] == ["::error"] * 9 + ["::warning"]
    assert "::notice::5 more findings" in out.getvalue()
    table = summary.read_text()
    assert table.count("| P") == 15 and "nit 2.4" in table


async def test_a_model_that_never_answers_is_exit_6(buggy_repo: Path) -> None:
    from agent.errors import ExitCode, ModelError

    with pytest.raises(ModelError) as caught:
        await reviewed(buggy_repo, [{"fault": ["500"] * 10, "text": "x"}], rev="HEAD")
    assert caught.value.exit_code == ExitCode.MODEL == 6


async def test_a_spent_budget_stops_before_the_next_part_and_names_what_is_left(
    tmp_path: Path,
) -> None:
    repo = make_git_repo(tmp_path / "big", {"keep.txt": "k\n"})
    for n in range(3):
        (repo / f"m{n}.py").write_text("".join(f"v{i} = {i}\n" for i in range(300)))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "big")
    out = io.StringIO()
    settings = load_settings(repo, {"limits.max_tokens": 1}, env={})
    with ScriptedServer(FINISH_ONLY) as server:
        from agent.llm.base import ModelProfile
        from agent.llm.openai_compat import OpenAICompatClient

        client = OpenAICompatClient(
            ModelProfile(base_url=server.base_url, model="m", context_window=4000)
        )
        await review_command(args(rev="HEAD"), repo, settings, client=client, out=out,
                             err=io.StringIO())  # fmt: skip
        await client.aclose()
        assert len(server.chat_requests) == 1
    notes = json.loads(out.getvalue())["notes"]
    assert "The budget was spent; not reviewed: m1.py, m2.py." in notes
